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
	w.RegisterActivity(&activitylib.Shipping{HTTP: &http.Client{Timeout: 5 * time.Second}}) // want `Shipping\.Book makes a new idempotency key \(header "Idempotency-Key"\) on every call, and Temporal runs it again when it fails, so its retries cannot be deduplicated; derive the key from the workflow and activity IDs \(activity\.GetInfo\(ctx\)\)`
	w.RegisterActivity(activitylib.Label)                                                   // want `activitylib\.Label makes a new idempotency key`
	return w.Run(worker.InterruptCh())
}
