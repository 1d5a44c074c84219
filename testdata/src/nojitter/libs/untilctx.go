package libs

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	backoff5 "github.com/cenkalti/backoff/v5"
	sethretry "github.com/sethvargo/go-retry"
)

// Libraries told to go on for ever: the context passed to them ends them only if whoever made
// it set a deadline, which a function handed its caller's context cannot know.

type invoice struct {
	ID     string `json:"id"`
	Amount int64  `json:"amount"`
}

type billing struct {
	hc   *http.Client
	base string
	log  *slog.Logger
}

// send makes one attempt: encode, send with several headers, check the status, decode.
func (b *billing) send(ctx context.Context, inv invoice) (string, error) {
	body, err := json.Marshal(inv)
	if err != nil {
		return "", fmt.Errorf("encode invoice %s: %w", inv.ID, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, b.base+"/invoices/"+inv.ID, bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := b.hc.Do(req)
	if err != nil {
		return "", fmt.Errorf("put invoice %s: %w", inv.ID, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 500 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return "", fmt.Errorf("put invoice %s: status %d: %s", inv.ID, resp.StatusCode, msg)
	}
	var out struct {
		Status string `json:"status"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return "", fmt.Errorf("decode invoice %s: %w", inv.ID, err)
	}
	return out.Status, nil
}

// ---- Reported: no attempt cap, only the caller's context ----

func (b *billing) SyncUntilSucceeded(ctx context.Context, inv invoice) (string, error) {
	return retrygo.DoWithData(func() (string, error) {
		status, err := b.send(ctx, inv)
		if err != nil {
			b.log.Warn("sync invoice", "id", inv.ID, "err", err)
		}
		return status, err
	},
		retrygo.Context(ctx),
		retrygo.UntilSucceeded(), // related "untilctx.go:65: retry callback" // want `retry\.DoWithData has no attempt cap: it retries until its context ends; add retry\.Attempts\(4\)`
		retrygo.Delay(200*time.Millisecond),
	)
}

func (b *billing) SyncAttemptsZero(ctx context.Context, inv invoice) error {
	err := retrygo.Do(func() error {
		_, err := b.send(ctx, inv)
		return err
	}, retrygo.Attempts(0), retrygo.Context(ctx)) // related "untilctx.go:79: retry callback" // want `retry\.Do has no attempt cap: it retries until its context ends; add retry\.Attempts\(4\)`
	if err != nil {
		return fmt.Errorf("sync invoice %s: %w", inv.ID, err)
	}
	return nil
}

func (b *billing) SyncSethvargo(ctx context.Context, inv invoice) error {
	backoff := sethretry.WithFullJitter(sethretry.NewExponential(100 * time.Millisecond))
	return sethretry.Do(ctx, backoff, func(ctx context.Context) error { // related "untilctx.go:91: retry callback" // want `retry\.Do has no attempt cap: it retries until its context ends; wrap the backoff in retry\.WithMaxRetries\(3, b\)`
		if _, err := b.send(ctx, inv); err != nil {
			return sethretry.RetryableError(err)
		}
		return nil
	})
}

func (b *billing) SyncBackoffNoElapsed(ctx context.Context, inv invoice) (string, error) {
	return backoff5.Retry(ctx, func() (string, error) { return b.send(ctx, inv) }, backoff5.WithMaxElapsedTime(0)) // related "untilctx.go:100: retry callback" // want `backoff\.Retry has no attempt cap: it retries until its context ends; add backoff\.WithMaxTries\(4\)`
}

// ---- Not reported ----

// The context is given a deadline right here.
func (b *billing) SyncWithDeadline(ctx context.Context, inv invoice) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	return retrygo.DoWithData(func() (string, error) { return b.send(ctx, inv) },
		retrygo.Context(ctx), retrygo.UntilSucceeded(), retrygo.Delay(200*time.Millisecond))
}

// The backoff has a time limit of its own.
func (b *billing) SyncSethvargoMaxDuration(ctx context.Context, inv invoice) error {
	backoff := sethretry.WithMaxDuration(time.Minute, sethretry.WithFullJitter(sethretry.NewExponential(100*time.Millisecond)))
	return sethretry.Do(ctx, backoff, func(ctx context.Context) error {
		_, err := b.send(ctx, inv)
		return sethretry.RetryableError(err)
	})
}

// backoff/v5's default: 15 minutes of elapsed time.
func (b *billing) SyncBackoffDefault(ctx context.Context, inv invoice) (string, error) {
	return backoff5.Retry(ctx, func() (string, error) { return b.send(ctx, inv) })
}

// Capped.
func (b *billing) SyncCapped(ctx context.Context, inv invoice) error {
	return retrygo.Do(func() error { _, err := b.send(ctx, inv); return err }, retrygo.Attempts(6), retrygo.Context(ctx))
}
