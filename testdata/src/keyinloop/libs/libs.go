package libs

import (
	"context"
	"net/http"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	backoff4 "github.com/cenkalti/backoff/v4"
	backoff5 "github.com/cenkalti/backoff/v5"
	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	"github.com/google/uuid"
	gax "github.com/googleapis/gax-go/v2"
	idemretry "github.com/idemlint/idemlint/runtime/retry"
	"github.com/oklog/ulid/v2"
	"github.com/rs/xid"
	"github.com/segmentio/ksuid"
	sethretry "github.com/sethvargo/go-retry"
	"k8s.io/apimachinery/pkg/util/wait"
	k8sretry "k8s.io/client-go/util/retry"

	gofrs "github.com/gofrs/uuid/v5"
)

var client = &http.Client{Timeout: 10 * time.Second}

func send(req *http.Request) error {
	_, err := client.Do(req)
	return err
}

// ---- Reported: a key made inside the retried function ----

func retryGo(req *http.Request) error {
	return retrygo.Do(func() error {
		key := uuid.NewString() // want `uuid.NewString inside the function retried by github.com/avast/retry-go/v4.Do at line 36 makes a new idempotency key`
		req.Header.Set("Idempotency-Key", key)
		return send(req)
	}, retrygo.Attempts(3))
}

func retryGoWithData(req *http.Request) (int, error) {
	return retrygo.DoWithData(func() (int, error) {
		req.Header.Set("Idempotency-Key", xid.New().String()) // want `xid.New inside the function retried by github.com/avast/retry-go/v4.DoWithData`
		return 1, send(req)
	})
}

func cenkaltiV4(req *http.Request) error {
	op := func() error {
		req.Header.Set("Idempotency-Key", ksuid.New().String()) // want `ksuid.New inside the function retried by github.com/cenkalti/backoff/v4.Retry`
		return send(req)
	}
	return backoff4.Retry(op, backoff4.NewExponentialBackOff())
}

func cenkaltiV5(ctx context.Context, req *http.Request) error {
	_, err := backoff5.Retry(ctx, func() (bool, error) {
		req.Header.Set("Idempotency-Key", ulid.Make().String()) // want `ulid.Make inside the function retried by github.com/cenkalti/backoff/v5.Retry`
		return true, send(req)
	}, backoff5.WithMaxTries(4))
	return err
}

func sethvargo(ctx context.Context, req *http.Request) error {
	b := sethretry.WithMaxRetries(3, sethretry.NewExponential(time.Second))
	return sethretry.Do(ctx, b, func(ctx context.Context) error {
		id := gofrs.Must(gofrs.NewV4()) // want `uuid.NewV4 inside the function retried by github.com/sethvargo/go-retry.Do`
		req.Header.Set("Idempotency-Key", id.String())
		return send(req)
	})
}

func kubernetes(req *http.Request) error {
	return k8sretry.RetryOnConflict(k8sretry.DefaultRetry, func() error {
		req.Header.Set("Idempotency-Key", uuid.NewString()) // want `inside the function retried by k8s.io/client-go/util/retry.RetryOnConflict`
		return send(req)
	})
}

func kubernetesWait(ctx context.Context, req *http.Request) error {
	return wait.ExponentialBackoffWithContext(ctx, wait.Backoff{Steps: 4, Jitter: 0.2}, func(ctx context.Context) (bool, error) {
		req.Header.Set("Idempotency-Key", uuid.NewString()) // want `inside the function retried by k8s.io/apimachinery/pkg/util/wait.ExponentialBackoffWithContext`
		return send(req) == nil, nil
	})
}

func failsafeGo(req *http.Request) error {
	rp := retrypolicy.NewBuilder[any]().WithMaxRetries(3).Build()
	return failsafe.Run(func() error {
		req.Header.Set("Idempotency-Key", uuid.NewString()) // want `inside the function retried by github.com/failsafe-go/failsafe-go.Run`
		return send(req)
	}, rp)
}

func gaxInvoke(ctx context.Context, req *http.Request, opts ...gax.CallOption) error {
	return gax.Invoke(ctx, func(ctx context.Context, _ gax.CallSettings) error {
		req.Header.Set("Idempotency-Key", uuid.NewString()) // want `inside the function retried by github.com/googleapis/gax-go/v2.Invoke`
		return send(req)
	}, opts...)
}

func runtimeRetry(ctx context.Context, req *http.Request) error {
	return idemretry.Do(ctx, idemretry.Policy{}, func(ctx context.Context, a idemretry.Attempt) error {
		req.Header.Set("Idempotency-Key", uuid.NewString()) // want `inside the function retried by github.com/idemlint/idemlint/runtime/retry.Do`
		return send(req)
	})
}

// A method value passed to a helper: the key is made inside the retried method.
type sender struct{ req *http.Request }

func (s *sender) attempt() error {
	s.req.Header.Set("Idempotency-Key", uuid.NewString()) // want `inside the function retried by github.com/avast/retry-go/v4.Do at line 120`
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
