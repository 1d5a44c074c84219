// Package sentinelstop forwards metrics to a collector, posting each batch again after the
// wait a backoff policy gives, until the policy answers with its Stop sentinel (after its
// maximum elapsed time). Handed context.Background(), the forwarder still gives up when the
// policy says so: not "for ever". A loop with no such exit, handed context.Background(),
// retries for ever. (Both add their own jitter to the policy's wait.)
package sentinelstop

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/cenkalti/backoff/v4"
)

// Forwarder posts batches to a collector.
type Forwarder struct {
	url        string
	hc         *http.Client
	maxElapsed time.Duration
}

// New returns a forwarder to url; maxElapsed bounds each batch's retries.
func New(url string, maxElapsed time.Duration) (*Forwarder, error) {
	if maxElapsed <= 0 {
		return nil, fmt.Errorf("max elapsed time must be positive")
	}
	return &Forwarder{url: url, hc: &http.Client{Timeout: 10 * time.Second}, maxElapsed: maxElapsed}, nil
}

func (f *Forwarder) postOnce(ctx context.Context, batch []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, f.url, bytes.NewReader(batch))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	resp, err := f.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("collector: status %d", resp.StatusCode)
	}
	return nil
}

func (f *Forwarder) post(ctx context.Context, batch []byte) {
	b := backoff.NewExponentialBackOff()
	b.MaxElapsedTime = f.maxElapsed
	for {
		err := f.postOnce(ctx, batch)
		if err == nil {
			return
		}
		next := b.NextBackOff()
		if next == backoff.Stop {
			slog.Info("failed to send, giving up", "err", err)
			return
		}
		timer := time.NewTimer(next/2 + rand.N(next/2+1))
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-timer.C:
		}
	}
}

func (f *Forwarder) postUntilDone(ctx context.Context, batch []byte) {
	b := backoff.NewExponentialBackOff()
	for {
		err := f.postOnce(ctx, batch)
		if err == nil {
			return
		}
		slog.Warn("failed to send, again", "err", err)
		next := b.NextBackOff()
		timer := time.NewTimer(next/2 + rand.N(next/2+1))
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-timer.C:
		}
	}
}

// Flush sends batches in the background, each on its own.
func (f *Forwarder) Flush(batches [][]byte) {
	for _, batch := range batches {
		go func(batch []byte) {
			f.post(context.Background(), batch)
		}(batch)
	}
}

// FlushAll sends batches in the background until each goes through.
func (f *Forwarder) FlushAll(batches [][]byte) {
	for _, batch := range batches {
		go func(batch []byte) {
			f.postUntilDone(context.Background(), batch) // want `Forwarder\.postUntilDone retries until its context is done, and this one never is: it retries for ever`
		}(batch)
	}
}
