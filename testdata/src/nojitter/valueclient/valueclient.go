// Package valueclient keeps its retrying HTTP clients by value in its providers' structs, set
// up by composite literals in their constructors. A retryablehttp.Client literal waits only
// as long as its RetryWaitMin and RetryWaitMax allow: left zero, the library's backoffs wait
// 0 and the attempts follow each other at once; left without RetryMax, it sends once.
package valueclient

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// Token is an access token and its expiry.
type Token struct {
	Value     string `json:"access_token"`
	ExpiresIn int    `json:"expires_in"`
}

func transport() *http.Client {
	return &http.Client{
		Timeout: 10 * time.Second,
		Transport: &http.Transport{
			DialContext:           (&net.Dialer{Timeout: time.Second, KeepAlive: -1}).DialContext,
			ResponseHeaderTimeout: 5 * time.Second,
		},
	}
}

func newRequest(ctx context.Context, url string) (*retryablehttp.Request, error) {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Metadata-Flavor", "Google")
	req.Header.Set("Accept", "application/json")
	return req, nil
}

func decode(resp *http.Response) (*Token, error) {
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("token: status %d", resp.StatusCode)
	}
	var t Token
	if err := json.NewDecoder(resp.Body).Decode(&t); err != nil {
		return nil, fmt.Errorf("decode token: %w", err)
	}
	return &t, nil
}

// MetadataProvider asks the instance metadata service for tokens; six attempts back to back.
type MetadataProvider struct {
	addr   string
	client retryablehttp.Client
	mu     sync.Mutex
	token  *Token
}

// NewMetadataProvider returns a provider of the metadata service at addr.
func NewMetadataProvider(addr string) *MetadataProvider {
	p := MetadataProvider{
		addr: addr,
		client: retryablehttp.Client{
			HTTPClient: transport(),
			RetryMax:   5,
			CheckRetry: retryablehttp.DefaultRetryPolicy,
			Backoff:    retryablehttp.DefaultBackoff, // related "valueclient.go:85: self-retrying client call" // want `retryablehttp\.Client retries without waiting, so it hammers a failing dependency; wait with jitter`
		},
	}
	return &p
}

// Token returns the current token, asking for a new one.
func (p *MetadataProvider) Token(ctx context.Context) (*Token, error) {
	req, err := newRequest(ctx, "http://"+p.addr+"/computeMetadata/v1/token")
	if err != nil {
		return nil, err
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("metadata token: %w", err)
	}
	t, err := decode(resp)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	p.token = t
	p.mu.Unlock()
	return t, nil
}

// STSProvider exchanges tokens at a security token service, backing off with jitter.
type STSProvider struct {
	endpoint string
	client   retryablehttp.Client
}

// NewSTSProvider returns a provider of the service at endpoint.
func NewSTSProvider(endpoint string) *STSProvider {
	return &STSProvider{
		endpoint: endpoint,
		client: retryablehttp.Client{
			HTTPClient:   transport(),
			RetryMax:     4,
			RetryWaitMin: 200 * time.Millisecond,
			RetryWaitMax: 5 * time.Second,
			CheckRetry:   retryablehttp.DefaultRetryPolicy,
			Backoff:      retryablehttp.LinearJitterBackoff,
		},
	}
}

// Exchange asks for a token.
func (p *STSProvider) Exchange(ctx context.Context) (*Token, error) {
	req, err := newRequest(ctx, p.endpoint+"/token")
	if err != nil {
		return nil, err
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("token: %w", err)
	}
	return decode(resp)
}

// ProbeProvider checks that the metadata service answers: one attempt, the literal's RetryMax
// being zero.
type ProbeProvider struct {
	addr   string
	client retryablehttp.Client
}

// NewProbeProvider returns a prober of addr.
func NewProbeProvider(addr string) *ProbeProvider {
	return &ProbeProvider{addr: addr, client: retryablehttp.Client{HTTPClient: transport(), CheckRetry: retryablehttp.DefaultRetryPolicy}}
}

// Available reports whether the service gave a token.
func (p *ProbeProvider) Available(ctx context.Context) bool {
	req, err := newRequest(ctx, "http://"+p.addr+"/computeMetadata/v1/token")
	if err != nil {
		return false
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// RefreshProvider refreshes tokens with a growing delay the library does not jitter.
type RefreshProvider struct {
	endpoint string
	client   retryablehttp.Client
}

// NewRefreshProvider returns a refresher of endpoint.
func NewRefreshProvider(endpoint string) *RefreshProvider {
	var p RefreshProvider
	p.endpoint = endpoint
	p.client = retryablehttp.Client{
		HTTPClient:   transport(),
		RetryMax:     3,
		RetryWaitMin: time.Second,
		RetryWaitMax: 30 * time.Second,
		Backoff:      retryablehttp.DefaultBackoff, // related "valueclient.go:185: self-retrying client call" // want `retryablehttp\.Client backs off without jitter, so clients that failed together retry together, in waves; add jitter`
	}
	return &p
}

// Refresh asks for a new token.
func (p *RefreshProvider) Refresh(ctx context.Context) (*Token, error) {
	req, err := newRequest(ctx, p.endpoint+"/refresh")
	if err != nil {
		return nil, err
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("token: %w", err)
	}
	return decode(resp)
}
