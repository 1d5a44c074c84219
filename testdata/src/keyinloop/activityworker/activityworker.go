// Package activityworker registers the activities of another package.
package activityworker

import (
	"net/http"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"keyinloop/activitylib"
)

func Run(c client.Client) error {
	w := worker.New(c, "shipping", worker.Options{})
	w.RegisterActivity(&activitylib.Shipping{HTTP: &http.Client{Timeout: 5 * time.Second}}) // related "activityworker.go:16: key made by uuid.NewString at activitylib.go:21" // want `Shipping\.Book makes a new idempotency key per call, which Temporal retries; derive it from the workflow and activity IDs`
	w.RegisterActivity(activitylib.Label)                                                   // related "activityworker.go:17: key made by uuid.NewString at activitylib.go:48" // want `activitylib\.Label: a new idempotency key per call, which Temporal retries; derive it from the workflow and activity IDs`
	return w.Run(worker.InterruptCh())
}
