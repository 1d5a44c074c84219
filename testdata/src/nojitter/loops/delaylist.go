package loops

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"time"
)

// Retries on a schedule of delays held in a list: however the loop walks the list (by
// index, counted to its length, or ranging over it), each round is an attempt of the same
// request, and the delays have no jitter.

var pushDelays = []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second}

type metricPusher struct {
	hc  *http.Client
	url string
	log *slog.Logger
}

func (p *metricPusher) pushOnce(ctx context.Context, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, p.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "text/plain; version=0.0.4")
	req.Header.Set("User-Agent", "pusher/2")
	resp, err := p.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("push: %s", resp.Status)
	}
	return nil
}

// ---- Reported: counted to the list's length ----

func (p *metricPusher) pushCounted(ctx context.Context, body []byte) error {
	var err error
	for i := 0; i < len(pushDelays); i++ {
		if err = p.pushOnce(ctx, body); err == nil {
			return nil
		}
		p.log.Warn("push failed", "attempt", i+1, "err", err)
		time.Sleep(pushDelays[i]) // related "delaylist.go:46: retry loop" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
	}
	return fmt.Errorf("push: giving up after %d attempts: %w", len(pushDelays), err)
}

// ---- Reported: a range over the list's length ----

func (p *metricPusher) pushRangeLen(ctx context.Context, body []byte) error {
	var err error
	for i := range len(pushDelays) {
		if err = p.pushOnce(ctx, body); err == nil {
			return nil
		}
		p.log.Warn("push failed", "attempt", i+1, "err", err)
		time.Sleep(pushDelays[i]) // related "delaylist.go:60: retry loop" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
	}
	return fmt.Errorf("push: giving up: %w", err)
}

// ---- Reported: a range over the delays, in a select with the context ----

func (p *metricPusher) pushRange(ctx context.Context, body []byte) error {
	var err error
	for _, d := range pushDelays {
		if err = p.pushOnce(ctx, body); err == nil {
			return nil
		}
		p.log.Warn("push failed", "retry_in", d, "err", err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d): // related "delaylist.go:74: retry loop" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
		}
	}
	return fmt.Errorf("push: giving up: %w", err)
}

// ---- Not reported: a range over targets, not delays ----

func (p *metricPusher) pushEach(ctx context.Context, urls []string, body []byte) error {
	var errs []error
	for _, u := range urls {
		q := &metricPusher{hc: p.hc, url: u, log: p.log}
		if err := q.pushOnce(ctx, body); err != nil {
			errs = append(errs, err)
			continue
		}
		return nil
	}
	return fmt.Errorf("push to %d targets failed: %v", len(urls), errs)
}
