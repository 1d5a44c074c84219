package loops

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// Following a redirect by hand: the request goes again, once, to the address the answer
// named. Nothing failed, nothing is retried.
type apiClient struct {
	hc    *http.Client
	token string
}

type apiRequest struct {
	URL    *url.URL
	Method string
}

func (r *apiRequest) build(ctx context.Context) (*http.Request, error) {
	return http.NewRequestWithContext(ctx, r.Method, r.URL.String(), nil)
}

func (c *apiClient) get(ctx context.Context, r *apiRequest) (*http.Response, error) {
	redirects := 0
again:
	req, err := r.build(ctx)
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-Api-Token", c.token)
	req.Header.Set("Accept", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", r.Method, r.URL, err)
	}
	if (resp.StatusCode == http.StatusMovedPermanently || resp.StatusCode == http.StatusTemporaryRedirect) && redirects == 0 {
		loc, err := resp.Location()
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		if r.URL.Scheme == "https" && loc.Scheme != "https" {
			return nil, errors.New("redirect would downgrade to http")
		}
		r.URL = loc
		redirects++
		goto again
	}
	return resp, nil
}

// Going again on 503 is a retry, even next to a redirect.
func (c *apiClient) getRetrying(ctx context.Context, u *url.URL) (*http.Response, error) { // want getRetrying:`retries: goto retry loop at redirect.go:60, attempts=3`
	tries := 0
again: // want `goto retry loop: attempts=3 wait=fixed deadline=context`
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusServiceUnavailable && tries < 2 {
		resp.Body.Close()
		tries++
		time.Sleep(time.Second)
		goto again
	}
	return resp, nil
}
