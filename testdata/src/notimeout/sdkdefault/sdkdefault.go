// Package sdkdefault is a payments SDK in the shape OpenAPI generators give: a Configuration
// the SDK makes itself, whose HTTPClient its users may replace, and which falls back to
// http.DefaultClient, with no Timeout.
package sdkdefault

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httputil"
)

// Configuration holds the SDK's settings.
type Configuration struct {
	BasePath   string
	UserAgent  string
	Debug      bool
	HTTPClient *http.Client
}

// NewConfiguration returns the SDK's default settings.
func NewConfiguration() *Configuration {
	return &Configuration{BasePath: "https://api.example.com", UserAgent: "sdkdefault/7.0"}
}

// APIClient sends the SDK's requests.
type APIClient struct {
	cfg    *Configuration
	apiKey string
}

// ---- Reported, once, where the default client is chosen ----

// NewClient returns a client authenticated with apiKey.
func NewClient(apiKey string) *APIClient {
	cfg := NewConfiguration()
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = http.DefaultClient // related "sdkdefault.go:74: APIClient.CallAPI sends a request with its caller's context through it" "sdkdefault.go:21: a client given here replaces the default" // want `http\.DefaultClient has no Timeout as the default, so APIClient\.CallAPI can hang; use a client with a Timeout`
	}
	return &APIClient{cfg: cfg, apiKey: apiKey}
}

// GetConfig returns the settings, which users may change.
func (c *APIClient) GetConfig() *Configuration { return c.cfg }

// PrepareRequest builds a request for path with body encoded as JSON.
func (c *APIClient) PrepareRequest(ctx context.Context, method, path string, body any) (*http.Request, error) {
	var buf bytes.Buffer
	if body != nil {
		if err := json.NewEncoder(&buf).Encode(body); err != nil {
			return nil, err
		}
	}
	req, err := http.NewRequestWithContext(ctx, method, c.cfg.BasePath+path, &buf)
	if err != nil {
		return nil, err
	}
	req.SetBasicAuth(c.apiKey, "")
	req.Header.Set("User-Agent", c.cfg.UserAgent)
	req.Header.Set("Content-Type", "application/json")
	return req, nil
}

// CallAPI sends request.
func (c *APIClient) CallAPI(request *http.Request) (*http.Response, error) {
	if c.cfg.Debug {
		if dump, err := httputil.DumpRequestOut(request, true); err == nil {
			log.Printf("\n%s\n", dump)
		}
	}
	resp, err := c.cfg.HTTPClient.Do(request)
	if err != nil {
		return resp, fmt.Errorf("sdkdefault: %w", err)
	}
	return resp, nil
}
