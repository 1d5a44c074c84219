package loops

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"math"
	"net/http"
	"time"
)

// An SDK whose wait between attempts is a function kept in its configuration: the package's
// default doubles without randomness, and that default is what most users run.

type SDKConfig struct {
	BaseURL    string
	MaxRetries int
	RetryWait  func(attempt int) time.Duration // nil: the default
}

type SDK struct {
	cfg SDKConfig
	hc  *http.Client
}

func defaultSDKWait(attempt int) time.Duration {
	return time.Duration(math.Pow(2, float64(attempt))) * 250 * time.Millisecond
}

func NewSDK(cfg SDKConfig) *SDK {
	if cfg.RetryWait == nil {
		cfg.RetryWait = defaultSDKWait
	}
	if cfg.MaxRetries <= 0 {
		cfg.MaxRetries = 3
	}
	return &SDK{cfg: cfg, hc: &http.Client{Timeout: 20 * time.Second}}
}

func (c *SDK) Fetch(ctx context.Context, path string, out any) error {
	var lastErr error
	for attempt := 0; attempt <= c.cfg.MaxRetries; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.cfg.BaseURL+path, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Accept", "application/json")
		resp, err := c.hc.Do(req)
		if err != nil {
			lastErr = err
			log.Printf("fetch %s (attempt %d): %v", path, attempt, err)
			time.Sleep(c.cfg.RetryWait(attempt)) // related "delayfield.go:44: retry loop" "delayfield.go:64: also waits without jitter" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
			continue
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		if resp.StatusCode >= 500 {
			lastErr = fmt.Errorf("fetch %s: status %d", path, resp.StatusCode)
			time.Sleep(c.cfg.RetryWait(attempt))
			continue
		}
		return json.Unmarshal(body, out)
	}
	return lastErr
}

// The wait is only what the caller puts in the field: nothing of the package's to judge.
type Pusher struct {
	hc    *http.Client
	url   string
	Delay func(int) time.Duration
}

func (p *Pusher) Push(ctx context.Context) error {
	var err error
	for n := 0; n < 4; n++ {
		req, rerr := http.NewRequestWithContext(ctx, http.MethodPut, p.url, nil)
		if rerr != nil {
			return rerr
		}
		resp, derr := p.hc.Do(req)
		if derr == nil {
			resp.Body.Close()
			if resp.StatusCode < 500 {
				return nil
			}
			derr = fmt.Errorf("status %d", resp.StatusCode)
		}
		err = derr
		time.Sleep(p.Delay(n))
	}
	return err
}
