// Package queuewait waits for SQS queues to settle, with the retry helpers of opsretry around
// calls of an SQS client that retries on its own. A callback that hands every failure of the
// client back marked as the helper's stop error polls a state that was read; it does not
// retry the client's failures, so the attempts do not multiply.
package queuewait

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"nestedretry/opsretry"
)

// Options hold the client and the logger of a wait.
type Options struct {
	Client *sqs.Client
	Log    *slog.Logger
}

func queues(ctx context.Context, c *sqs.Client, prefix string) ([]string, error) {
	out, err := c.ListQueues(ctx, &sqs.ListQueuesInput{QueueNamePrefix: aws.String(prefix)})
	if err != nil {
		return nil, fmt.Errorf("listing queues %q: %w", prefix, err)
	}
	return out.QueueUrls, nil
}

// ---- Not reported: the client's failure stops the helper ----

// WaitForCount waits until count queues have the prefix; a failure to list stops at once.
func WaitForCount(ctx context.Context, o Options, prefix string, count int) error {
	err := opsretry.Do(o.Log, "waiting for queues", 30, 2*time.Second, func() error {
		urls, err := queues(ctx, o.Client, prefix)
		if err != nil {
			return opsretry.Fatal{Underlying: err}
		}
		if len(urls) != count {
			o.Log.Info("queues not ready", "have", len(urls), "want", count)
			return fmt.Errorf("%d of %d queues", len(urls), count)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("queues with prefix %q: %w", prefix, err)
	}
	return nil
}

// WaitGone waits until no queue has the prefix, with a context; the client's failure is
// marked permanent through a pointer.
func WaitGone(ctx context.Context, o Options, prefix string) error {
	return opsretry.DoContext(ctx, 20, time.Second, func(ctx context.Context) error {
		urls, err := queues(ctx, o.Client, prefix)
		if err != nil {
			o.Log.Warn("listing failed", "err", err)
			return &opsretry.Permanent{Err: err}
		}
		if len(urls) > 0 {
			return errors.New("queues still there")
		}
		return nil
	})
}

// ---- Reported: the helper goes round on the client's failure ----

// WaitForAny waits until a queue has the prefix, and lists again when listing fails.
func WaitForAny(ctx context.Context, o Options, prefix string) (string, error) {
	var first string
	err := opsretry.Do(o.Log, "waiting for a queue", 30, 2*time.Second, func() error {
		urls, err := queues(ctx, o.Client, prefix) // related "queuewait.go:76: outer retry callback" "queuewait.go:27: inner self-retrying client call" // want `retries around queues, which retries up to 3 times: attempts multiply on transient failures; keep one layer`
		if err != nil {
			return err
		}
		if len(urls) == 0 {
			return errors.New("no queue yet")
		}
		first = urls[0]
		return nil
	})
	return first, err
}

// WaitGoneWrapped wraps the client's failure in the helper's exhaustion type, which the
// helper does not stop on.
func WaitGoneWrapped(ctx context.Context, o Options, prefix string) error {
	return opsretry.DoContext(ctx, 20, time.Second, func(ctx context.Context) error {
		urls, err := queues(ctx, o.Client, prefix) // related "queuewait.go:93: outer retry callback" "queuewait.go:27: inner self-retrying client call" // want `retries around queues, which retries up to 3 times: attempts multiply on transient failures; keep one layer`
		if err != nil {
			return opsretry.Exhausted{What: err.Error()}
		}
		if len(urls) > 0 {
			return errors.New("queues still there")
		}
		return nil
	})
}

// WaitForCountPatient marks the client's failure fatal only after ten rounds; before that it
// logs it and goes round.
func WaitForCountPatient(ctx context.Context, o Options, prefix string, count int) error {
	round := 0
	return opsretry.Do(o.Log, "waiting for queues", 30, 2*time.Second, func() error {
		round++
		urls, err := queues(ctx, o.Client, prefix) // related "queuewait.go:109: outer retry callback" "queuewait.go:27: inner self-retrying client call" // want `retries around queues, which retries up to 3 times: attempts multiply on transient failures; keep one layer`
		if err != nil {
			if round >= 10 {
				return opsretry.Fatal{Underlying: err}
			}
			o.Log.Warn("listing failed", "round", round, "err", err)
			return errors.New("listing failed")
		}
		if len(urls) != count {
			return fmt.Errorf("%d of %d queues", len(urls), count)
		}
		return nil
	})
}
