// Package davauth is a WebDAV client whose request loop answers authentication challenges:
// an authenticator prepares each request and, told the answer, may ask for the request again
// with the scheme the server named. That is a hand-shake, not a retry. Writes retry a
// 503 with backoff; the sync loop around them multiplies those attempts.
package davauth

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"
)

// An Authenticator authorizes requests and checks the answers to them.
type Authenticator interface {
	Authorize(c *http.Client, req *http.Request, path string) error
	// Verify reports whether the request must be sent again (the server asked for another
	// scheme, and the authenticator now has it).
	Verify(c *http.Client, resp *http.Response, path string) (redo bool, err error)
}

type basicAuth struct{ user, password string }

func (b *basicAuth) Authorize(_ *http.Client, req *http.Request, _ string) error {
	req.SetBasicAuth(b.user, b.password)
	return nil
}

func (b *basicAuth) Verify(_ *http.Client, resp *http.Response, path string) (bool, error) {
	if resp.StatusCode == http.StatusUnauthorized {
		return false, fmt.Errorf("davauth: %s: basic authentication rejected", path)
	}
	return false, nil
}

// negotiator starts without credentials and switches to the scheme the first challenge names.
type negotiator struct {
	user, password string
	chosen         Authenticator
	nonce          string
}

func (n *negotiator) Authorize(c *http.Client, req *http.Request, path string) error {
	if n.chosen != nil {
		return n.chosen.Authorize(c, req, path)
	}
	if n.nonce != "" {
		sum := md5.Sum([]byte(n.user + ":" + n.nonce + ":" + n.password))
		req.Header.Set("Authorization", fmt.Sprintf(`Digest username=%q, nonce=%q, response=%q`, n.user, n.nonce, hex.EncodeToString(sum[:])))
	}
	return nil
}

func (n *negotiator) Verify(c *http.Client, resp *http.Response, path string) (bool, error) {
	if resp.StatusCode != http.StatusUnauthorized {
		return false, nil
	}
	if n.chosen != nil || n.nonce != "" {
		return false, fmt.Errorf("davauth: %s: credentials rejected", path)
	}
	challenge := resp.Header.Get("WWW-Authenticate")
	switch {
	case strings.HasPrefix(challenge, "Basic"):
		n.chosen = &basicAuth{user: n.user, password: n.password}
	case strings.HasPrefix(challenge, "Digest"):
		n.nonce = between(challenge, `nonce="`, `"`)
	default:
		return false, fmt.Errorf("davauth: %s: unsupported challenge %q", path, challenge)
	}
	return true, nil
}

func between(s, from, to string) string {
	_, after, ok := strings.Cut(s, from)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(after, to)
	return v
}

type Client struct {
	root    string
	hc      *http.Client
	headers http.Header
	auth    Authenticator
	log     *slog.Logger
}

func New(root, user, password string) *Client {
	return &Client{
		root:    strings.TrimSuffix(root, "/"),
		hc:      &http.Client{Timeout: time.Minute},
		headers: http.Header{"User-Agent": {"davauth/1"}},
		auth:    &negotiator{user: user, password: password},
		log:     slog.Default(),
	}
}

// req sends one request, again after each challenge the authenticator took up.
func (c *Client) req(ctx context.Context, method, path string, body []byte, intercept func(*http.Request)) (*http.Response, error) {
	for {
		r, err := http.NewRequestWithContext(ctx, method, c.root+path, bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		for k, vs := range c.headers {
			for _, v := range vs {
				r.Header.Add(k, v)
			}
		}
		if err := c.auth.Authorize(c.hc, r, path); err != nil {
			return nil, err
		}
		if intercept != nil {
			intercept(r)
		}
		rs, err := c.hc.Do(r)
		if err != nil {
			return nil, err
		}
		redo, err := c.auth.Verify(c.hc, rs, path)
		if err != nil {
			rs.Body.Close()
			return nil, err
		}
		if redo {
			io.Copy(io.Discard, rs.Body)
			rs.Body.Close()
			c.log.DebugContext(ctx, "authentication challenge answered", "path", path)
			continue
		}
		return rs, nil
	}
}

// Stat asks for a resource's properties.
func (c *Client) Stat(ctx context.Context, path string) (int64, error) {
	rs, err := c.req(ctx, "PROPFIND", path, nil, func(r *http.Request) { r.Header.Set("Depth", "0") })
	if err != nil {
		return 0, err
	}
	defer rs.Body.Close()
	if rs.StatusCode != http.StatusMultiStatus {
		return 0, fmt.Errorf("davauth: stat %s: %s", path, rs.Status)
	}
	data, err := io.ReadAll(rs.Body)
	if err != nil {
		return 0, err
	}
	return int64(len(data)), nil
}

var errBusy = errors.New("davauth: server busy")

// Write puts data at path, trying again, with backoff, while the server is busy.
func (c *Client) Write(ctx context.Context, path string, data []byte) error {
	delay := 100 * time.Millisecond
	for attempt := 0; ; attempt++ {
		rs, err := c.req(ctx, http.MethodPut, path, data, nil)
		if err != nil {
			return err
		}
		io.Copy(io.Discard, rs.Body)
		rs.Body.Close()
		if rs.StatusCode != http.StatusServiceUnavailable {
			if rs.StatusCode >= 300 {
				return fmt.Errorf("davauth: put %s: %s", path, rs.Status)
			}
			return nil
		}
		if attempt == 4 {
			return errBusy
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay/2 + rand.N(delay/2)):
		}
		delay *= 2
	}
}

// backoff runs op up to five times with jittered, growing waits.
func backoff(ctx context.Context, op func() error) error {
	var err error
	delay := 200 * time.Millisecond
	for range 5 {
		if err = op(); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay/2 + rand.N(delay/2)):
		}
		delay *= 2
	}
	return err
}

// Exists asks for path's properties, retrying failures: one layer, since the challenge loop
// inside does not retry.
func (c *Client) Exists(ctx context.Context, path string) (bool, error) {
	var size int64
	err := backoff(ctx, func() error {
		var err error
		size, err = c.Stat(ctx, path)
		return err
	})
	return size > 0, err
}

// Upload retries Write, which retries on its own.
func (c *Client) Upload(ctx context.Context, path string, data []byte) error {
	return backoff(ctx, func() error {
		return c.Write(ctx, path, data) // related "davauth.go:224: outer retry callback", "davauth.go:167: inner retry loop" // want `retries up to 5 times around Client.Write, which retries up to 5 times: up to 25 calls on 5xx; keep one layer`
	})
}
