// Package remotewrite ships metric samples to a Prometheus remote-write endpoint and retries
// failed pushes: the protocol makes a repeated push safe (the receiver keeps one sample per
// series and timestamp), so no key is needed. An event push without that protocol is not.
package remotewrite

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"time"
)

type Client struct {
	hc       *http.Client
	url      string
	user     string
	password string
	zstd     bool
	log      *slog.Logger
}

// ---- Not reported: a remote-write push ----

func (c *Client) Push(ctx context.Context, block []byte) error {
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(block))
		if err != nil {
			return err
		}
		h := req.Header
		h.Set("User-Agent", "shipper/1.0")
		h.Set("Content-Type", "application/x-protobuf")
		if c.zstd {
			h.Set("Content-Encoding", "zstd")
			h.Set("X-VictoriaMetrics-Remote-Write-Version", "1")
		} else {
			h.Set("Content-Encoding", "snappy")
			h.Set("X-Prometheus-Remote-Write-Version", "0.1.0")
		}
		if c.user != "" {
			req.SetBasicAuth(c.user, c.password)
		}
		resp, err := c.hc.Do(req)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode/100 == 2 {
				return nil
			}
			err = fmt.Errorf("remote write: %s", resp.Status)
			if resp.StatusCode/100 == 4 && resp.StatusCode != http.StatusTooManyRequests {
				return err // the receiver rejected the data: sending it again will not help
			}
		}
		lastErr = err
		c.log.Warn("push failed", "attempt", attempt, "err", err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(rand.Int64N(int64(time.Second << attempt)))):
		}
	}
	return lastErr
}

// ---- Reported: an event push, which the receiver counts twice ----

func (c *Client) PushEvent(ctx context.Context, event []byte) error {
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url+"/events", bytes.NewReader(event)) // related "remotewrite.go:76: retry loop" "remotewrite.go:82: sent here" // want `POST /events is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.hc.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode/100 == 2 {
				return nil
			}
			err = fmt.Errorf("push event: %s", resp.Status)
		}
		lastErr = err
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(rand.Int64N(int64(time.Second << attempt)))):
		}
	}
	return lastErr
}

// ---- Not reported: a log push in remote write's wire format (a snappy body), without its
// version header ----

type recoverableError struct{ error }

func (c *Client) PushLogs(ctx context.Context, batch []byte) error {
	var err error
	for try := 0; try < 10; try++ {
		if err = c.storeLogs(ctx, batch); err == nil {
			return nil
		}
		var rec recoverableError
		if !errors.As(err, &rec) {
			return err
		}
		c.log.Warn("log push failed", "try", try, "err", err)
		time.Sleep(time.Duration(rand.Int64N(int64(30 * time.Millisecond << try))))
	}
	return err
}

func (c *Client) storeLogs(ctx context.Context, body []byte) error {
	req, err := http.NewRequest(http.MethodPost, c.url+"/loki/api/v1/push", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Add("Content-Encoding", "snappy")
	req.Header.Set("Content-Type", "application/x-protobuf")
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	resp, err := c.hc.Do(req.WithContext(ctx))
	if err != nil {
		return recoverableError{err}
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode/100 == 5 || resp.StatusCode == http.StatusTooManyRequests {
		return recoverableError{fmt.Errorf("server returned %s", resp.Status)}
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("server returned %s", resp.Status)
	}
	return nil
}
