// Package cachewait gets objects that another controller creates, waiting for them to show
// up: a callback that hands the helper back only a "not found" answer polls for the object;
// one that hands back any failure retries it.
package cachewait

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/cenkalti/backoff/v4"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// ---- Not reported: only "not found" goes round, every other error stops the helper ----

func getWhenCreated(ctx context.Context, c client.Client, key types.NamespacedName, obj client.Object, delay time.Duration, max uint64) error {
	bo := backoff.WithMaxRetries(backoff.NewConstantBackOff(delay), max)
	return backoff.Retry(func() error {
		err := c.Get(ctx, key, obj)
		if err != nil {
			if apierrors.IsNotFound(err) {
				return err
			} else {
				return backoff.Permanent(err)
			}
		}
		return nil
	}, bo)
}

type Syncer struct {
	Client   client.Client
	Interval time.Duration
	Logger   *log.Logger
}

func (s *Syncer) waitForSecret(ctx context.Context, key types.NamespacedName, obj client.Object) error {
	attempt := 0
	op := func() error {
		attempt++
		if err := s.Client.Get(ctx, key, obj); err != nil {
			if !apierrors.IsNotFound(err) {
				return backoff.Permanent(fmt.Errorf("get %s: %w", key, err))
			}
			s.Logger.Printf("secret %s not there yet (attempt %d)", key, attempt)
			return err
		}
		return nil
	}
	return backoff.RetryNotify(op, backoff.WithMaxRetries(backoff.NewConstantBackOff(s.Interval), 30), func(err error, d time.Duration) {
		s.Logger.Printf("waiting %s for %s: %v", d, key, err)
	})
}

// ---- Reported: every failure goes round at the same interval ----

func getAnyFailure(ctx context.Context, c client.Client, key types.NamespacedName, obj client.Object, delay time.Duration) error {
	bo := backoff.WithMaxRetries(backoff.NewConstantBackOff(delay), 10) // related "cachewait.go:63: retry callback" // want `backoff\.Retry waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
	return backoff.Retry(func() error {
		if err := c.Get(ctx, key, obj); err != nil {
			if apierrors.IsNotFound(err) {
				return fmt.Errorf("%s not created yet: %w", key, err)
			}
			return fmt.Errorf("get %s: %w", key, err)
		}
		return nil
	}, bo)
}

// "Not found" and conflicts go round: a conflict is a failure of the write, not an answer
// to wait on.
func (s *Syncer) updateWhenCreated(ctx context.Context, key types.NamespacedName, obj client.Object) error {
	return backoff.Retry(func() error {
		if err := s.Client.Get(ctx, key, obj); err != nil {
			if apierrors.IsNotFound(err) {
				return err
			}
			return backoff.Permanent(err)
		}
		if err := s.Client.Update(ctx, obj); err != nil {
			if apierrors.IsConflict(err) {
				return err
			}
			return backoff.Permanent(err)
		}
		return nil
	}, backoff.WithMaxRetries(backoff.NewConstantBackOff(s.Interval), 5)) // related "cachewait.go:77: retry callback" // want `backoff\.Retry waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
}
