// Package portable is a queue API over drivers: it sends each batch through the driver and
// retries the errors the driver calls retryable, with a jittered backoff.
package portable

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"time"

	"nestedretry/portable/driver"
)

type Topic struct {
	driver driver.Topic
	log    *slog.Logger
}

// NewTopic is for drivers only.
var NewTopic = newTopic

func newTopic(d driver.Topic, log *slog.Logger) *Topic {
	return &Topic{driver: d, log: log}
}

func (t *Topic) Send(ctx context.Context, body []byte, meta map[string]string) error {
	return sendBatch(ctx, t.driver, []*driver.Message{{Body: body, Metadata: meta}}, t.log)
}

func sendBatch(ctx context.Context, d driver.Topic, ms []*driver.Message, log *slog.Logger) error {
	backoff := 100 * time.Millisecond
	for attempt := 1; attempt <= 5; attempt++ {
		err := d.SendBatch(ctx, ms)
		if err == nil {
			return nil
		}
		if !d.IsRetryable(err) {
			return err
		}
		log.Warn("send batch failed", "attempt", attempt, "err", err)
		select {
		case <-ctx.Done():
			return errors.Join(err, ctx.Err())
		case <-time.After(rand.N(backoff)):
		}
		backoff *= 2
	}
	return errors.New("portable: send batch: out of attempts")
}

func (t *Topic) Shutdown() error { return t.driver.Close() }
