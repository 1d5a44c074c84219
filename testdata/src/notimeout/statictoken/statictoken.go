// Package statictoken: a storage API client authorised through x/oauth2. With an access token
// only (a long-lived API token), the Config's client never refreshes it, so the context it keeps
// for refreshing is never sent: not reported. With a refresh token, it refreshes at the token
// endpoint with that context, which has no deadline: reported.
package statictoken

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"golang.org/x/oauth2"
)

type Config struct {
	Domain       string
	Token        string
	RefreshToken string
}

type Client struct {
	base string
	hc   *http.Client
}

func endpoint(domain string) oauth2.Endpoint {
	return oauth2.Endpoint{AuthURL: "https://" + domain + "/oauth2/authorize", TokenURL: "https://api." + domain + "/oauth2/token"}
}

// New authorises with the API token alone.
func New(cfg Config) *Client {
	conf := &oauth2.Config{Endpoint: endpoint(cfg.Domain)}
	tok := &oauth2.Token{AccessToken: cfg.Token}
	return &Client{base: "https://api." + cfg.Domain, hc: conf.Client(context.Background(), tok)} // related "statictoken.go:56: Client.Account sends a request with its caller's context through it" // want `this http\.Client has no Timeout by default, so Client\.Account can hang; set a default Timeout`
}

// NewRefreshing authorises with a token it refreshes when it expires.
func NewRefreshing(cfg Config, id, secret string) *Client {
	conf := &oauth2.Config{ClientID: id, ClientSecret: secret, Endpoint: endpoint(cfg.Domain)}
	tok := &oauth2.Token{AccessToken: cfg.Token, RefreshToken: cfg.RefreshToken}
	return &Client{base: "https://api." + cfg.Domain, hc: conf.Client(context.Background(), tok)} // related "oauth2.go:110: Config.Client keeps its context for later calls of Client.Do" "statictoken.go:42: context.Background() has no deadline" // want `Config\.Client keeps a context without a deadline for its later calls of Client\.Do, so a stalled server hangs them`
}

type account struct {
	ID    string `json:"account_id"`
	Email string `json:"email"`
}

// Account reads the current account with the caller's context.
func (c *Client) Account(ctx context.Context) (*account, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/2/users/get_current_account", nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("get current account: %s", resp.Status)
	}
	var a account
	if err := json.NewDecoder(resp.Body).Decode(&a); err != nil {
		return nil, err
	}
	return &a, nil
}
