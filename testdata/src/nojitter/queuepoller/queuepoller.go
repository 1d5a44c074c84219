// Package queuepoller receives a queue's messages through an interface that the SQS client
// satisfies: the client the package makes when the caller gives none, which an option can
// replace (and the tests do, with a stand-in). Its throttling retry backs off through a wait
// function kept in a field, of a named function type, filled with the package's own.
package queuepoller

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

type queueAPI interface {
	ReceiveMessage(ctx context.Context, params *sqs.ReceiveMessageInput, optFns ...func(*sqs.Options)) (*sqs.ReceiveMessageOutput, error)
	DeleteMessage(ctx context.Context, params *sqs.DeleteMessageInput, optFns ...func(*sqs.Options)) (*sqs.DeleteMessageOutput, error)
}

type waitFunc func(context.Context, time.Duration) bool

// Poller receives messages from one queue.
type Poller struct {
	client   queueAPI
	queueURL string
	wait     waitFunc
	log      *slog.Logger
}

// Option configures a Poller.
type Option func(*Poller)

// WithClient receives through c instead of an SQS client made from the default configuration.
func WithClient(c queueAPI) Option { return func(p *Poller) { p.client = c } }

// New returns a poller of queueURL.
func New(ctx context.Context, queueURL string, opts ...Option) (*Poller, error) {
	p := &Poller{queueURL: queueURL, wait: sleepCtx, log: slog.Default()}
	for _, o := range opts {
		o(p)
	}
	if p.client == nil {
		cfg, err := config.LoadDefaultConfig(ctx)
		if err != nil {
			return nil, fmt.Errorf("load aws config: %w", err)
		}
		p.client = sqs.NewFromConfig(cfg)
	}
	return p, nil
}

const (
	baseDelay = 200 * time.Millisecond
	maxDelay  = 5 * time.Second
)

// delay doubles from baseDelay with each attempt, up to maxDelay.
func delay(attempt int) time.Duration {
	d := baseDelay
	for i := 1; i < attempt; i++ {
		if d >= maxDelay {
			return maxDelay
		}
		d *= 2
	}
	return min(d, maxDelay)
}

// sleepCtx waits d, or until ctx is done: false then.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

func throttled(err error) bool {
	var ol *types.OverLimit
	var rt *types.RequestThrottled
	return errors.As(err, &ol) || errors.As(err, &rt)
}

func (p *Poller) receive(ctx context.Context) ([]types.Message, error) {
	out, err := p.client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{
		QueueUrl:            aws.String(p.queueURL),
		MaxNumberOfMessages: 10,
		WaitTimeSeconds:     20,
	})
	if err != nil {
		return nil, fmt.Errorf("receive from %s: %w", p.queueURL, err)
	}
	return out.Messages, nil
}

func (p *Poller) backOff(ctx context.Context, err error, attempt int) bool {
	d := delay(attempt)
	p.log.Warn("receive throttled", "queue", p.queueURL, "attempt", attempt, "delay", d, "err", err)
	return p.wait(ctx, d)
}

// ---- Reported: the default client is remote, and the wait its field holds doubles ----

// Receive returns the next messages, retrying while the queue is throttled.
func (p *Poller) Receive(ctx context.Context) ([]types.Message, error) {
	for attempt := 1; ; attempt++ {
		msgs, err := p.receive(ctx)
		if err == nil {
			return msgs, nil
		}
		if !throttled(err) {
			return nil, err
		}
		if !p.backOff(ctx, err, attempt) { // related "queuepoller.go:117: retry loop" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
			return nil, ctx.Err()
		}
	}
}

// ---- Not reported: what the tests' stand-in does is not what the package runs; and a
// loop over the messages received once retries nothing ----

// Ack deletes the messages that were handled.
func (p *Poller) Ack(ctx context.Context, msgs []types.Message) error {
	var errs []error
	for _, m := range msgs {
		if _, err := p.client.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: aws.String(p.queueURL), ReceiptHandle: m.ReceiptHandle}); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
