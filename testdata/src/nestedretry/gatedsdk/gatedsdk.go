// Package gatedsdk is a cloud SDK whose client retries network failures only when its profile
// says how many times: NetworkFailureMaxRetries defaults to zero, one attempt.
package gatedsdk

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"
)

type Profile struct {
	Endpoint                 string
	NetworkFailureMaxRetries int
}

// An Option configures a Profile.
type Option func(*Profile)

// WithNetworkRetries retries network failures n times.
func WithNetworkRetries(n int) Option { return func(p *Profile) { p.NetworkFailureMaxRetries = n } }

type Client struct {
	profile *Profile
	hc      *http.Client
}

func NewClient(endpoint string, opts ...Option) *Client {
	p := &Profile{Endpoint: endpoint}
	for _, o := range opts {
		o(p)
	}
	return &Client{profile: p, hc: &http.Client{Timeout: 30 * time.Second}}
}

// Describe reads an instance, retrying network failures as the profile allows.
func (c *Client) Describe(ctx context.Context, id string) (int, error) {
	var err error
	for i := 0; i <= c.profile.NetworkFailureMaxRetries; i++ {
		req, rerr := http.NewRequestWithContext(ctx, http.MethodGet, c.profile.Endpoint+"/instances/"+id, nil)
		if rerr != nil {
			return 0, rerr
		}
		var resp *http.Response
		if resp, err = c.hc.Do(req); err == nil {
			resp.Body.Close()
			return resp.StatusCode, nil
		}
		time.Sleep(time.Duration(rand.Int64N(int64(time.Second))))
	}
	return 0, fmt.Errorf("describe %s: %w", id, err)
}
