// Package metadatatoken fetches IAM tokens from the instance metadata service through a
// retrying client. Its requests carry the caller's context; the client has no Timeout, but
// the transport under it bounds the wait for an answer (ResponseHeaderTimeout), so a stalled
// metadata service cannot hold a request before the headers. Without that bound it can.
package metadatatoken

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// Token is an IAM token and its expiry.
type Token struct {
	Value     string    `json:"access_token"`
	ExpiresAt time.Time `json:"expires_at"`
}

// ---- Not reported: the transport bounds the wait for the answer's headers ----

// Provider asks the metadata service for tokens.
type Provider struct {
	addr   string
	client *retryablehttp.Client
}

// New returns a provider of the metadata service at addr.
func New(addr string) *Provider {
	return &Provider{
		addr: addr,
		client: &retryablehttp.Client{
			HTTPClient: &http.Client{
				Transport: &http.Transport{
					DialContext:           (&net.Dialer{Timeout: time.Second, KeepAlive: -1}).DialContext,
					ResponseHeaderTimeout: 5 * time.Second,
				},
			},
			RetryMax:   5,
			CheckRetry: retryablehttp.DefaultRetryPolicy,
			Backoff:    retryablehttp.DefaultBackoff,
		},
	}
}

// Token asks for a token.
func (p *Provider) Token(ctx context.Context) (*Token, error) {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, "http://"+p.addr+"/computeMetadata/v1/instance/service-accounts/default/token", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Metadata-Flavor", "Google")
	resp, err := p.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("metadata token: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("metadata token: %s", resp.Status)
	}
	var t Token
	if err := json.NewDecoder(resp.Body).Decode(&t); err != nil {
		return nil, fmt.Errorf("metadata token: decode: %w", err)
	}
	return &t, nil
}

// ---- Reported: the transport bounds only the dial ----

// Fetcher reads instance attributes from the metadata service.
type Fetcher struct {
	addr   string
	client *retryablehttp.Client
}

// NewFetcher returns a fetcher of the metadata service at addr.
func NewFetcher(addr string) *Fetcher {
	return &Fetcher{
		addr: addr,
		client: &retryablehttp.Client{ // related "metadatatoken.go:102: Fetcher.Get sends a request with its caller's context through it" // want `this retryablehttp\.Client has no HTTPClient\.Timeout by default, so Fetcher\.Get can hang unless callers set deadlines`
			HTTPClient: &http.Client{
				Transport: &http.Transport{DialContext: (&net.Dialer{Timeout: time.Second}).DialContext},
			},
			RetryMax:   5,
			CheckRetry: retryablehttp.DefaultRetryPolicy,
			Backoff:    retryablehttp.DefaultBackoff,
		},
	}
}

// Get reads one attribute of the instance.
func (f *Fetcher) Get(ctx context.Context, name string) (string, error) {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, "http://"+f.addr+"/computeMetadata/v1/instance/attributes/"+name, nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("Metadata-Flavor", "Google")
	resp, err := f.client.Do(req)
	if err != nil {
		return "", fmt.Errorf("attribute %s: %w", name, err)
	}
	defer resp.Body.Close()
	var v string
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		return "", err
	}
	return v, nil
}
