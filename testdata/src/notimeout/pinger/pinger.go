// Package pinger is a webhook dispatcher's endpoint check: the client has no Timeout, and its
// one production caller bounds each try with context.WithTimeout; a test calls the helper
// with a plain context, which is no caller users run.
package pinger

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"
)

type PingOptions struct {
	Endpoint string
	Method   string
	Timeout  time.Duration
}

type Dispatcher struct {
	client *http.Client
	log    *slog.Logger
}

func NewDispatcher(log *slog.Logger) *Dispatcher {
	return &Dispatcher{client: &http.Client{}, log: log}
}

// Ping tries each method in turn, each bounded by the caller's timeout.
func (d *Dispatcher) Ping(ctx context.Context, opts PingOptions) error {
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	var lastErr error
	for _, method := range []string{http.MethodHead, http.MethodGet, http.MethodPost} {
		o := opts
		o.Method = method
		err := d.tryPing(ctx, o)
		if err == nil {
			return nil
		}
		d.log.Debug("ping failed", "method", method, "err", err)
		lastErr = err
	}
	return fmt.Errorf("ping %s: %w", opts.Endpoint, lastErr)
}

func (d *Dispatcher) tryPing(ctx context.Context, opts PingOptions) error {
	var body io.Reader
	if opts.Method == http.MethodPost {
		body = bytes.NewBufferString(`{"test":"ping"}`)
	}
	req, err := http.NewRequestWithContext(ctx, opts.Method, opts.Endpoint, body)
	if err != nil {
		return err
	}
	req.Header.Set("User-Agent", "pinger/1")
	resp, err := d.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return errors.New(resp.Status)
	}
	return nil
}
