// Package tokengrant logs in to an operations manager with the resource owner's password
// through x/oauth2 and then creates deployments. Asking the token endpoint again issues another
// token and changes nothing: retrying the token request is not reported, although x/oauth2
// sends it as a POST whose grant type its callers put in the form. The deployment POST, sent
// by a helper that takes its form from its caller, is a write: retried unkeyed, it is reported.
package tokengrant

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/oauth2"
)

// Client talks to the operations manager.
type Client struct {
	base     string
	hc       *http.Client
	conf     *oauth2.Config
	user     string
	password string
	token    *oauth2.Token
}

// New returns a client of the manager at base.
func New(base, user, password string) *Client {
	return &Client{
		base: base,
		hc:   &http.Client{Timeout: 30 * time.Second},
		conf: &oauth2.Config{ClientID: "opsman", Endpoint: oauth2.Endpoint{TokenURL: base + "/uaa/oauth/token"}},
		user: user, password: password,
	}
}

// Login gets a token, three tries back to back.
func (c *Client) Login(ctx context.Context) error {
	var err error
	for i := 0; i <= 2; i++ {
		var tok *oauth2.Token
		tok, err = c.conf.PasswordCredentialsToken(ctx, c.user, c.password)
		if err == nil {
			c.token = tok
			return nil
		}
		slog.Debug("token request failed", "try", i, "err", err)
	}
	return fmt.Errorf("token could not be retrieved from %s: %w", c.base, err)
}

func (c *Client) postForm(ctx context.Context, path string, form url.Values) (map[string]any, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+path, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", "Bearer "+c.token.AccessToken)
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return nil, fmt.Errorf("%s: status %d", path, resp.StatusCode)
	}
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, err
	}
	return out, nil
}

// Deploy creates a deployment of product, three tries with a pause.
func (c *Client) Deploy(ctx context.Context, product string) (map[string]any, error) {
	var err error
	for i := 0; i < 3; i++ {
		var out map[string]any
		out, err = c.postForm(ctx, "/api/v0/deployments", url.Values{"product": {product}}) // related "tokengrant.go:81: retry loop" "tokengrant.go:63: sent here by postForm" // want `a POST request is retried with no idempotency key; postForm must send one made before the retries`
		if err == nil {
			return out, nil
		}
		time.Sleep(2 * time.Second)
	}
	return nil, err
}
