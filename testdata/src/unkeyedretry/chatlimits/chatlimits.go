// Package chatlimits relays messages to a chat service. It posts a message again only after
// the service turned it away for its rate, waiting as long as the answer said: the request had
// no effect, so nothing is posted twice. A relay that also goes round on any other failure,
// after a fixed pause, can post a message twice.
package chatlimits

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"chatapi"
)

type Relay struct {
	api *chatapi.Client
	log *slog.Logger
}

func New(token string) *Relay {
	return &Relay{api: chatapi.New(token), log: slog.Default()}
}

// handleRateLimit waits as long as a rate-limited answer says and returns nil; any other error
// is returned as it is.
func (r *Relay) handleRateLimit(err error) error {
	rl, ok := err.(*chatapi.RateLimitedError)
	if !ok {
		return err
	}
	r.log.Info("rate limited by the chat service", "retry_after", rl.RetryAfter)
	time.Sleep(rl.RetryAfter)
	return nil
}

// Send posts text, again only after a rate limit.
func (r *Relay) Send(ctx context.Context, channel, text string) (string, error) {
	for {
		ts, err := r.api.PostMessage(ctx, channel, text)
		if err == nil {
			return ts, nil
		}
		if err = r.handleRateLimit(err); err != nil {
			r.log.Error("could not post", "channel", channel, "err", err)
			return "", err
		}
	}
}

// SendAll posts each text in turn, waiting out rate limits with errors.As.
func (r *Relay) SendAll(ctx context.Context, channel string, texts []string) error {
	for _, text := range texts {
		for {
			_, err := r.api.PostMessage(ctx, channel, text)
			if err == nil {
				break
			}
			var rl *chatapi.RateLimitedError
			if !errors.As(err, &rl) {
				return err
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(rl.RetryAfter):
			}
		}
	}
	return nil
}

// SendPersistently posts text again after any failure, pausing a second: a timeout after the
// service took the message posts it twice.
func (r *Relay) SendPersistently(ctx context.Context, channel, text string) (string, error) {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var ts string
		if ts, err = r.api.PostMessage(ctx, channel, text); err == nil { // related "chatlimits.go:77: retry loop" // want `a POST request is retried with no idempotency key; Client\.PostMessage must send one made before the retries`
			return ts, nil
		}
		r.log.Warn("post failed", "attempt", attempt+1, "err", err)
		time.Sleep(time.Second)
	}
	return "", err
}

// SendPatiently waits what a rate limit says, or a second after any other failure: those
// other failures post the message again.
func (r *Relay) SendPatiently(ctx context.Context, channel, text string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if _, err = r.api.PostMessage(ctx, channel, text); err == nil { // related "chatlimits.go:92: retry loop" // want `a POST request is retried with no idempotency key; Client\.PostMessage must send one made before the retries`
			return nil
		}
		wait := time.Second
		var rl *chatapi.RateLimitedError
		if errors.As(err, &rl) {
			wait = rl.RetryAfter
		}
		time.Sleep(wait)
	}
	return err
}
