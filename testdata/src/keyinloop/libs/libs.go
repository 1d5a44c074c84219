package libs

import (
	"context"
	"net/http"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	"github.com/failsafe-go/failsafe-go"
	"github.com/google/uuid"
	gax "github.com/googleapis/gax-go/v2"
	idemretry "github.com/idemlint/idemlint/runtime/retry"
	"github.com/rs/xid"
	k8sretry "k8s.io/client-go/util/retry"
)

var client = &http.Client{Timeout: 10 * time.Second}

func send(req *http.Request) error {
	_, err := client.Do(req)
	return err
}

// ---- Reported: a key made inside the retried function ----

func retryGoWithData(req *http.Request) (int, error) {
	return retrygo.DoWithData(func() (int, error) {
		req.Header.Set("Idempotency-Key", xid.New().String()) // related "libs.go:27: retry callback" "libs.go:28: sent as header \"Idempotency-Key\"" // want `xid\.New makes a new idempotency key per attempt of retry\.DoWithData: retries cannot be deduplicated; move it out`
		return 1, send(req)
	})
}

func kubernetes(req *http.Request) error {
	return k8sretry.RetryOnConflict(k8sretry.DefaultRetry, func() error {
		req.Header.Set("Idempotency-Key", uuid.NewString()) // related "libs.go:34: retry callback" "libs.go:35: sent as header \"Idempotency-Key\"" // want `uuid\.NewString makes a new idempotency key per attempt of retry\.RetryOnConflict; move it out`
		return send(req)
	})
}

// A method value passed to a helper: the key is made inside the retried method.
type sender struct{ req *http.Request }

func (s *sender) attempt() error {
	s.req.Header.Set("Idempotency-Key", uuid.NewString()) // related "libs.go:49: retry callback" "libs.go:44: sent as header \"Idempotency-Key\"" // want `uuid\.NewString makes a new idempotency key per attempt of retry\.Do: retries cannot be deduplicated; move it out`
	return send(s.req)
}

func methodValue(s *sender) error {
	return retrygo.Do(s.attempt)
}

// ---- Not reported ----

// The key is made before the helper call and captured.
func keyOutside(ctx context.Context, req *http.Request) error {
	key := uuid.NewString()
	return idemretry.Do(ctx, idemretry.Policy{}, func(ctx context.Context, a idemretry.Attempt) error {
		req.Header.Set("Idempotency-Key", key)
		req.Header.Set("X-Request-ID", uuid.NewString())
		return send(req)
	})
}

// failsafe-go without a retry policy calls once.
func noRetryPolicy(req *http.Request) error {
	return failsafe.Run(func() error {
		req.Header.Set("Idempotency-Key", uuid.NewString())
		return send(req)
	})
}

// gax.Invoke without options calls once.
func gaxOnce(ctx context.Context, req *http.Request) error {
	return gax.Invoke(ctx, func(ctx context.Context, _ gax.CallSettings) error {
		req.Header.Set("Idempotency-Key", uuid.NewString())
		return send(req)
	})
}

// A function literal that is not retried.
func notRetried(req *http.Request) error {
	f := func() error {
		req.Header.Set("Idempotency-Key", uuid.NewString())
		return send(req)
	}
	return f()
}
