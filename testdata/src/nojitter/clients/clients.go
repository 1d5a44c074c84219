// Package clients holds self-retrying clients: reported once, where they are made or
// configured, not at every request.
package clients

import (
	"context"
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

type notifier struct {
	rc  *retryablehttp.Client
	url string
}

// The library's default backoff has no jitter.
func newNotifier(url string) *notifier {
	rc := retryablehttp.NewClient() // related "clients.go:32: self-retrying client call" // want `retryablehttp\.Client backs off without jitter, so clients that failed together retry together, in waves; add jitter`
	rc.RetryMax = 3
	rc.RetryWaitMin = 500 * time.Millisecond
	return &notifier{rc: rc, url: url}
}

func (n *notifier) Send(ctx context.Context, body []byte) error {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, n.url, body)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := n.rc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (n *notifier) Ping(ctx context.Context) error {
	resp, err := n.rc.Get(n.url + "/ping") // related "clients.go:40: self-retrying client call" // want `retryablehttp\.Client ignores ctx, so its retries outlive the caller's deadline; use NewRequestWithContext\(ctx, \.\.\.\)`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// An explicit DefaultBackoff: the field is where jitter goes.
func newAuditClient() *retryablehttp.Client {
	return &retryablehttp.Client{
		RetryMax:     4,
		RetryWaitMin: time.Second,
		RetryWaitMax: 30 * time.Second,
		Backoff:      retryablehttp.DefaultBackoff, // related "clients.go:67: self-retrying client call" // want `retryablehttp\.Client backs off without jitter, so clients that failed together retry together, in waves; add jitter`
	}
}

func audit(ctx context.Context, c *retryablehttp.Client, url string) error {
	resp, err := c.Get(url) // related "clients.go:58: self-retrying client call" // want `retryablehttp\.Client ignores ctx, so its retries outlive the caller's deadline; use NewRequestWithContext\(ctx, \.\.\.\)`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func useAudit(ctx context.Context) error {
	c := newAuditClient()
	resp, err := c.Get("https://audit.example.com/v1/events") // related "clients.go:67: self-retrying client call" // want `retryablehttp\.Client ignores ctx, so its retries outlive the caller's deadline; use NewRequestWithContext\(ctx, \.\.\.\)`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// ---- Not reported ----

func newJitteredClient() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.Backoff = retryablehttp.LinearJitterBackoff
	c.RetryMax = 3
	return c
}

func useJittered(ctx context.Context) error {
	c := newJitteredClient()
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, "https://api.example.com/v1/things", nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// ---- Reported: a request made without the caller's context, sent through Do ----

func (n *notifier) Replace(ctx context.Context, body []byte) error {
	req, err := retryablehttp.NewRequest(http.MethodPut, n.url, body)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := n.rc.Do(req) // related "clients.go:104: self-retrying client call" // want `retryablehttp\.Client ignores ctx, so its retries outlive the caller's deadline; use NewRequestWithContext\(ctx, \.\.\.\)`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// A job's own context type, which embeds the context the job runs under.
type jobContext struct {
	context.Context
	jobID string
}

// ---- Reported: a context at hand as a type embedding one, and as a variable a closure shares ----

func (n *notifier) Report(jc *jobContext, body []byte) error {
	resp, err := n.rc.Post(n.url+"/jobs/"+jc.jobID, "application/json", body) // related "clients.go:120: self-retrying client call" // want `retryablehttp\.Client ignores jc, so its retries outlive the caller's deadline; use NewRequestWithContext\(jc, \.\.\.\)`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (n *notifier) ReplaceAll(bodies [][]byte, timeout time.Duration) error {
	ctx := context.Background()
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	replace := func(body []byte) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		req, err := retryablehttp.NewRequest(http.MethodPut, n.url, body)
		if err != nil {
			return err
		}
		resp, err := n.rc.Do(req) // related "clients.go:142: self-retrying client call" // want `retryablehttp\.Client ignores ctx, so its retries outlive the caller's deadline; use NewRequestWithContext\(ctx, \.\.\.\)`
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}
	for _, b := range bodies {
		if err := replace(b); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return nil
}
