// Package timeoutresend probes a resolver over DNS-over-HTTPS: a query that got no answer in
// time is sent again.
package timeoutresend

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"
)

type Module struct {
	Retries      int
	RetryTimeout time.Duration
}

type Prober struct {
	hc  *http.Client
	log *slog.Logger
}

// Probe sends the query again only when it timed out: each round that goes round has waited
// its RetryTimeout out. Not reported.
func (p *Prober) Probe(ctx context.Context, url string, query []byte, m Module) (bool, error) {
	p.hc.Timeout = m.RetryTimeout
	for retry := 0; retry <= m.Retries; retry++ {
		p.log.Info("making query", "target", url, "retry", retry)
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url+"?dns="+base64.RawURLEncoding.EncodeToString(query), nil)
		if err != nil {
			return false, err
		}
		req.Header.Set("Accept", "application/dns-message")
		start := time.Now()
		resp, err := p.hc.Do(req)
		if err != nil {
			p.log.Error("query failed", "err", err, "took", time.Since(start))
			if errors.Is(err, context.DeadlineExceeded) {
				return false, err // out of time: the probe failed
			}
			var netErr net.Error
			if errors.As(err, &netErr) && netErr.Timeout() {
				continue // no answer in time: send it again
			}
			return false, fmt.Errorf("query: %w", err)
		}
		answer, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		if err != nil {
			return false, err
		}
		return resp.StatusCode == http.StatusOK && len(answer) > 12, nil
	}
	return false, errors.New("no answer")
}

// ProbeEagerly sends it again at once whatever the failure (a refused connection too): reported.
func (p *Prober) ProbeEagerly(ctx context.Context, url string, query []byte, m Module) (bool, error) {
	var lastErr error
	for retry := 0; retry <= m.Retries; retry++ { // related "timeoutresend.go:64: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url+"?dns="+base64.RawURLEncoding.EncodeToString(query), nil)
		if err != nil {
			return false, err
		}
		resp, err := p.hc.Do(req)
		if err != nil {
			lastErr = err
			p.log.Error("query failed", "err", err)
			continue
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK, nil
	}
	return false, lastErr
}
