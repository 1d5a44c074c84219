// Package retryhttp is a stub of this project's runtime/retry/retryhttp.
package retryhttp

import (
	"net/http"

	"github.com/idemlint/idemlint/runtime/retry"
)

type Transport struct {
	Base            http.RoundTripper
	Policy          retry.Policy
	IdempotencyKeys bool
	NewKey          func() string
}

func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) { return nil, nil }
