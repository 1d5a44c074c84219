// Package libs holds library retries: the finding is at the option that configures them, or
// at the call when the library's default is to blame.
package libs

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	backoff4 "github.com/cenkalti/backoff/v4"
	backoff5 "github.com/cenkalti/backoff/v5"
	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	idemretry "github.com/idemlint/idemlint/runtime/retry"
	sethretry "github.com/sethvargo/go-retry"
	"k8s.io/apimachinery/pkg/util/wait"
	k8sretry "k8s.io/client-go/util/retry"
)

type store struct {
	hc  *http.Client
	url string
}

var errConflict = errors.New("conflict")

// put makes one attempt: build, send, classify.
func (s *store) put(ctx context.Context, key string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, s.url+"/objects/"+key, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/octet-stream")
	resp, err := s.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusConflict:
		return errConflict
	case resp.StatusCode >= 500:
		return fmt.Errorf("put %s: status %d", key, resp.StatusCode)
	}
	return nil
}

// ---- Reported: no jitter ----

func (s *store) RetryGoFixed(ctx context.Context, key string) error {
	return retrygo.Do(func() error { return s.put(ctx, key) },
		retrygo.Attempts(5),
		retrygo.Context(ctx),
		retrygo.DelayType(retrygo.FixedDelay), // related "libs.go:55: retry callback" // want `retry\.Do waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
	)
}

func (s *store) RetryGoBackoff(ctx context.Context, key string) error {
	err := retrygo.Do(
		func() error {
			if err := s.put(ctx, key); err != nil {
				log.Printf("put %s: %v", key, err)
				return err
			}
			return nil
		},
		retrygo.Attempts(4), retrygo.Context(ctx), retrygo.DelayType(retrygo.BackOffDelay), // related "libs.go:63: retry callback" // want `retry\.Do backs off without jitter, so clients that failed together retry together, in waves; add jitter`
	)
	return err
}

func (s *store) CenkaltiLiteral(ctx context.Context, key string) error {
	b := &backoff4.ExponentialBackOff{
		InitialInterval:     100 * time.Millisecond,
		RandomizationFactor: 0, // related "libs.go:84: retry callback" // want `backoff\.Retry backs off without jitter, so clients that failed together retry together, in waves; add jitter`
		Multiplier:          2,
		MaxInterval:         10 * time.Second,
		MaxElapsedTime:      time.Minute,
	}
	return backoff4.Retry(func() error { return s.put(ctx, key) }, backoff4.WithContext(b, ctx))
}

func (s *store) CenkaltiOption(ctx context.Context, key string) error {
	b := backoff4.NewExponentialBackOff(backoff4.WithRandomizationFactor(0)) // related "libs.go:89: retry callback" // want `backoff\.Retry backs off without jitter, so clients that failed together retry together, in waves; add jitter`
	return backoff4.Retry(func() error { return s.put(ctx, key) }, backoff4.WithContext(b, ctx))
}

func (s *store) CenkaltiConstant(ctx context.Context, key string) error {
	b := backoff4.WithMaxRetries(backoff4.NewConstantBackOff(time.Second), 3) // related "libs.go:94: retry callback" // want `backoff\.Retry waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
	return backoff4.Retry(func() error { return s.put(ctx, key) }, backoff4.WithContext(b, ctx))
}

func (s *store) SethvargoExponential(ctx context.Context, key string) error {
	b := sethretry.WithMaxRetries(3, sethretry.NewExponential(200*time.Millisecond)) // related "libs.go:99: retry callback" // want `retry\.Do backs off without jitter, so clients that failed together retry together, in waves; add jitter`
	return sethretry.Do(ctx, b, func(ctx context.Context) error {
		if err := s.put(ctx, key); err != nil {
			return sethretry.RetryableError(err)
		}
		return nil
	})
}

func (s *store) SethvargoConstantHelper(ctx context.Context, key string) error {
	return sethretry.Constant(ctx, time.Second, func(ctx context.Context) error { // related "libs.go:108: retry callback" "libs.go:108: retry callback" // want `retry\.Constant waits a fixed delay between attempts, so clients that failed together retry together; add jitter` `retry\.Constant has no attempt cap: it retries until its context ends; wrap the backoff in retry\.WithMaxRetries\(3, b\)`
		return sethretry.RetryableError(s.put(ctx, key))
	})
}

func (s *store) KubernetesBackoff(ctx context.Context, key string) error {
	return wait.ExponentialBackoffWithContext(ctx, wait.Backoff{Steps: 5, Duration: 100 * time.Millisecond, Factor: 2}, func(ctx context.Context) (bool, error) { // related "libs.go:114: retry callback" // want `wait\.ExponentialBackoffWithContext backs off without jitter: clients that failed together retry in waves; add jitter`
		switch err := s.put(ctx, key); {
		case err == nil:
			return true, nil
		case errors.Is(err, errConflict):
			return false, nil
		default:
			return false, err
		}
	})
}

func (s *store) FailsafeBackoff(ctx context.Context, key string) error {
	rp := retrypolicy.NewBuilder[any]().WithMaxRetries(3).WithBackoff(100*time.Millisecond, 5*time.Second).Build() // related "libs.go:128: retry callback" // want `failsafe\.Executor\.Run backs off without jitter, so clients that failed together retry together, in waves; add jitter`
	return failsafe.With[any](rp).WithContext(ctx).Run(func() error { return s.put(ctx, key) })
}

func (s *store) FailsafeNoDelay(ctx context.Context, key string) error {
	rp := retrypolicy.NewBuilder[any]().WithMaxRetries(2).Build()
	return failsafe.With[any](rp).WithContext(ctx).Run(func() error { return s.put(ctx, key) }) // related "libs.go:133: retry callback" // want `failsafe\.Executor\.Run retries without waiting, so it hammers a failing dependency; wait with jitter`
}

// ---- Reported: no cap and no deadline ----

func (s *store) RetryGoForever(key string) error {
	return retrygo.Do(func() error { return s.put(context.Background(), key) }, retrygo.UntilSucceeded()) // related "libs.go:139: retry callback" // want `retry\.Do has no attempt cap and no deadline, so it retries for ever while the dependency is down; add retry\.Attempts\(4\)`
}

func (s *store) CenkaltiForever(key string) error {
	b := backoff4.NewExponentialBackOff(backoff4.WithMaxElapsedTime(0)) // related "libs.go:144: retry callback" // want `backoff\.Retry retries for ever \(no attempt cap, no deadline\); wrap the BackOff in backoff\.WithMaxRetries\(b, 3\)`
	return backoff4.Retry(func() error { return s.put(context.Background(), key) }, b)
}

func (s *store) CenkaltiV5Forever(key string) (int, error) {
	return backoff5.Retry(context.Background(), func() (int, error) { return 1, s.put(context.Background(), key) }, backoff5.WithMaxElapsedTime(0)) // related "libs.go:148: retry callback" // want `backoff\.Retry retries for ever \(no attempt cap, no deadline\); add backoff\.WithMaxTries\(4\)`
}

func (s *store) FailsafeForever(key string) error {
	rp := retrypolicy.NewBuilder[any]().WithMaxRetries(-1).WithJitter(time.Second).Build() // related "libs.go:153: retry callback" // want `failsafe\.Run retries for ever \(no attempt cap, no deadline\); set WithMaxRetries\(3\) on the retry policy`
	return failsafe.Run(func() error { return s.put(context.Background(), key) }, rp)
}

// ---- Reported: the caller's context is ignored ----

// upload makes one attempt without a context.
func (s *store) upload(key string, data []byte) error {
	req, err := http.NewRequest(http.MethodPut, s.url+"/objects/"+key, nil)
	if err != nil {
		return err
	}
	resp, err := s.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (s *store) RetryGoNoContext(ctx context.Context, key string) error {
	return retrygo.Do(func() error { return s.upload(key, nil) }, retrygo.Attempts(5)) // related "libs.go:172: retry callback" // want `retry\.Do does not observe ctx, so its retries outlive the caller's deadline; add retry\.Context\(ctx\)`
}

func (s *store) CenkaltiNoContext(ctx context.Context, key string) error {
	return backoff4.Retry(func() error { return s.upload(key, nil) }, backoff4.WithMaxRetries(backoff4.NewExponentialBackOff(backoff4.WithMaxElapsedTime(0)), 5)) // related "libs.go:176: retry callback" // want `backoff\.Retry ignores ctx, so its retries outlive the caller's deadline; wrap the BackOff in backoff\.WithContext\(b, ctx\)`
}

func (s *store) RuntimeBackground(ctx context.Context, key string) error {
	return idemretry.Do(context.Background(), idemretry.Policy{MaxAttempts: 5}, func(_ context.Context, a idemretry.Attempt) error { // related "libs.go:180: retry callback" // want `retry\.Do does not observe ctx, so its retries outlive the caller's deadline; pass ctx to retry\.Do`
		return s.upload(key, nil)
	})
}

// ---- Not reported ----

func (s *store) RetryGoDefaults(ctx context.Context, key string) error {
	return retrygo.Do(func() error { return s.put(ctx, key) }, retrygo.Attempts(4), retrygo.Context(ctx))
}

func (s *store) CenkaltiDefaults(ctx context.Context, key string) error {
	b := backoff4.WithContext(backoff4.WithMaxRetries(backoff4.NewExponentialBackOff(), 4), ctx)
	return backoff4.Retry(func() error { return s.put(ctx, key) }, b)
}

func (s *store) SethvargoJittered(ctx context.Context, key string) error {
	b := sethretry.WithMaxRetries(3, sethretry.WithFullJitter(sethretry.NewExponential(200*time.Millisecond)))
	return sethretry.Do(ctx, b, func(ctx context.Context) error { return sethretry.RetryableError(s.put(ctx, key)) })
}

func (s *store) SethvargoJitterPercent(ctx context.Context, key string) error {
	b := sethretry.WithJitterPercent(10, sethretry.WithMaxRetries(3, sethretry.NewFibonacci(time.Second)))
	return sethretry.Do(ctx, b, func(ctx context.Context) error { return sethretry.RetryableError(s.put(ctx, key)) })
}

// client-go's own conflict retry in a reconciler: jittered, capped, a few milliseconds.
func (s *store) Reconcile(ctx context.Context, key string) error {
	return k8sretry.RetryOnConflict(k8sretry.DefaultRetry, func() error {
		return s.put(ctx, key)
	})
}

func (s *store) KubernetesJittered(ctx context.Context, key string) error {
	return wait.ExponentialBackoffWithContext(ctx, wait.Backoff{Steps: 5, Duration: time.Second, Factor: 2, Jitter: 0.5}, func(ctx context.Context) (bool, error) {
		return s.put(ctx, key) == nil, nil
	})
}

// A poll waits for a condition; its interval need not be jittered.
func (s *store) WaitReady(ctx context.Context, key string) error {
	return wait.PollUntilContextTimeout(ctx, 2*time.Second, time.Minute, true, func(ctx context.Context) (bool, error) {
		return s.put(ctx, key) == nil, nil
	})
}

func (s *store) FailsafeJittered(ctx context.Context, key string) error {
	rp := retrypolicy.NewBuilder[any]().WithMaxRetries(3).WithBackoff(100*time.Millisecond, 5*time.Second).WithJitterFactor(0.5).Build()
	return failsafe.With[any](rp).WithContext(ctx).Run(func() error { return s.put(ctx, key) })
}

// This project's runtime jitters, caps and observes the context by default.
func (s *store) Runtime(ctx context.Context, key string) error {
	return idemretry.Do(ctx, idemretry.Policy{}, func(ctx context.Context, a idemretry.Attempt) error {
		return s.put(ctx, key)
	})
}

// A delay function of the program's own that returns a constant: MaxJitter only feeds the
// library's RandomDelay, so the waits are fixed.
func (s *store) RetryGoOwnFixed(ctx context.Context, key string) error {
	return retrygo.Do(func() error { return s.put(ctx, key) },
		retrygo.Attempts(3),
		retrygo.Context(ctx),
		retrygo.MaxJitter(time.Second),
		retrygo.DelayType(func(n uint, err error, _ *retrygo.Config) time.Duration { // related "libs.go:241: retry callback" // want `retry\.Do waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
			log.Printf("put %s: attempt %d: %v", key, n, err)
			return 3 * time.Second
		}),
	)
}

// One computed from the attempt number: how it grows, the model does not judge.
func (s *store) RetryGoOwnByAttempt(ctx context.Context, key string) error {
	return retrygo.Do(func() error { return s.put(ctx, key) },
		retrygo.Attempts(3),
		retrygo.Context(ctx),
		retrygo.DelayType(func(n uint, _ error, _ *retrygo.Config) time.Duration {
			return time.Duration(n+1) * time.Second
		}),
	)
}
