package loops

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
)

// An SDK's request function that sends a request again only when a hook its user installed
// says so: the hook is handed the context, the error and the count, and waits as it likes
// before it returns nil. By default there is no hook and nothing is sent again. The wait is
// the hook's, not missing.

type unexpectedStatus struct {
	URL    string
	Status int
	Body   []byte
}

func (e *unexpectedStatus) Error() string { return fmt.Sprintf("%s: unexpected status %d", e.URL, e.Status) }

// RetryHook decides whether to send a failed request again; nil means yes.
type RetryHook func(ctx context.Context, method, url string, err error, failures uint) error

// BackoffHook decides, after a 429, whether to send again; nil means yes.
type BackoffHook func(ctx context.Context, status *unexpectedStatus, failures uint) error

type sdkState struct {
	failures uint
	reauthed bool
	body     io.Reader
}

type sdkClient struct {
	hc          *http.Client
	token       string
	Retry       RetryHook
	Backoff     BackoffHook
	MaxBackoffs uint
	authURL     string
}

func (c *sdkClient) reauthenticate(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.authURL, nil)
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	c.token = resp.Header.Get("X-Subject-Token")
	return nil
}

func (c *sdkClient) Request(ctx context.Context, method, url string, out any, ok ...int) (*http.Response, error) {
	return c.request(ctx, method, url, out, ok, &sdkState{})
}

func (c *sdkClient) request(ctx context.Context, method, url string, out any, ok []int, st *sdkState) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-Auth-Token", c.token)
	req.Header.Set("Accept", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		if c.Retry != nil {
			st.failures++
			if e := c.Retry(ctx, method, url, err, st.failures); e != nil {
				return nil, e
			}
			return c.request(ctx, method, url, out, ok, st)
		}
		return nil, err
	}
	okc := ok
	if len(okc) == 0 {
		okc = []int{http.StatusOK}
	}
	if !slices.Contains(okc, resp.StatusCode) {
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		status := &unexpectedStatus{URL: url, Status: resp.StatusCode, Body: body}
		switch resp.StatusCode {
		case http.StatusUnauthorized:
			if !st.reauthed {
				if err := c.reauthenticate(ctx); err != nil {
					return nil, fmt.Errorf("reauthenticate: %w (after %v)", err, status)
				}
				if st.body != nil {
					if seeker, isSeeker := st.body.(io.Seeker); isSeeker {
						if _, err := seeker.Seek(0, io.SeekStart); err != nil {
							return nil, err
						}
					}
				}
				st.reauthed = true
				resp, err = c.request(ctx, method, url, out, ok, st)
				if err != nil {
					return nil, fmt.Errorf("after reauthentication: %w", err)
				}
				return resp, nil
			}
		case http.StatusTooManyRequests:
			if f := c.Backoff; f != nil && st.failures < c.MaxBackoffs {
				st.failures++
				if e := f(ctx, status, st.failures); e != nil {
					return resp, e
				}
				return c.request(ctx, method, url, out, ok, st)
			}
		}
		if c.Retry != nil {
			st.failures++
			if e := c.Retry(ctx, method, url, status, st.failures); e != nil {
				return resp, e
			}
			return c.request(ctx, method, url, out, ok, st)
		}
		return resp, status
	}
	defer resp.Body.Close()
	if out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			return resp, fmt.Errorf("decode %s: %w", url, err)
		}
	}
	return resp, nil
}

// requestAgain sends again at once on a 5xx, whatever the user installed: reported.
func (c *sdkClient) requestAgain(ctx context.Context, url string, st *sdkState) (*http.Response, error) { // related "retryhooks.go:138: retrying recursion" // want `retrying function requestAgain goes round without waiting, so it hammers a failing dependency; wait with jitter`
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 500 && st.failures < 3 {
		resp.Body.Close()
		st.failures++
		if c.Retry != nil {
			c.Retry(ctx, http.MethodGet, url, fmt.Errorf("status %d", resp.StatusCode), st.failures)
		}
		return c.requestAgain(ctx, url, st)
	}
	return resp, nil
}
