// Package tokenauth fetches OAuth2 client-credentials tokens. Its token source keeps the
// context it is made with and sends every later token request with it, through the
// *http.Client the context carries (ClientKey), else http.DefaultClient.
package tokenauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

type contextKey struct{}

// ClientKey is the context key of the *http.Client token requests are sent with.
var ClientKey contextKey

type Token struct {
	AccessToken string    `json:"access_token"`
	TokenType   string    `json:"token_type"`
	ExpiresIn   int       `json:"expires_in"`
	Expiry      time.Time `json:"-"`
}

func (t *Token) valid(now time.Time) bool {
	return t != nil && t.AccessToken != "" && now.Add(10*time.Second).Before(t.Expiry)
}

type Config struct {
	ClientID     string
	ClientSecret string
	TokenURL     string
	Scopes       []string
}

// platformClient is set on platforms whose outbound requests need a client of their own
// (platform.go, behind a build tag); nil elsewhere.
var platformClient func(context.Context) *http.Client

// clientFrom returns the client ctx carries, else http.DefaultClient.
func clientFrom(ctx context.Context) *http.Client {
	if hc, ok := ctx.Value(ClientKey).(*http.Client); ok && hc != nil {
		return hc
	}
	if platformClient != nil {
		return platformClient(ctx)
	}
	return http.DefaultClient // related "tokenauth.go:70: Config.Fetch sends a request with its caller's context through it" "tokenauth.go:48: a client given here replaces the default" // want `http\.DefaultClient has no Timeout as the default, so Config\.Fetch can hang; use a client with a Timeout`
}

// Fetch asks the token endpoint for a token once, with ctx.
func (c *Config) Fetch(ctx context.Context) (*Token, error) {
	form := url.Values{"grant_type": {"client_credentials"}}
	if len(c.Scopes) > 0 {
		form.Set("scope", strings.Join(c.Scopes, " "))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.TokenURL, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.SetBasicAuth(url.QueryEscape(c.ClientID), url.QueryEscape(c.ClientSecret))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := clientFrom(ctx).Do(req)
	if err != nil {
		return nil, fmt.Errorf("token request: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("token endpoint: %s: %s", resp.Status, body)
	}
	var tok Token
	if err := json.Unmarshal(body, &tok); err != nil {
		return nil, err
	}
	if tok.AccessToken == "" {
		return nil, errors.New("token endpoint returned no access_token")
	}
	tok.Expiry = time.Now().Add(time.Duration(tok.ExpiresIn) * time.Second)
	return &tok, nil
}

// Source hands out a cached token and fetches a new one when it expires, with the context
// the source was made with.
type Source struct {
	ctx  context.Context
	conf *Config

	mu  sync.Mutex
	tok *Token
}

// NewSource returns a token source that fetches with ctx.
func (c *Config) NewSource(ctx context.Context) *Source {
	return &Source{ctx: ctx, conf: c}
}

// Token returns the cached token, or fetches one.
func (s *Source) Token() (*Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tok.valid(time.Now()) {
		return s.tok, nil
	}
	tok, err := s.conf.Fetch(s.ctx)
	if err != nil {
		return nil, err
	}
	s.tok = tok
	return tok, nil
}

type transport struct {
	src  *Source
	base http.RoundTripper
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	tok, err := t.src.Token()
	if err != nil {
		return nil, err
	}
	r := req.Clone(req.Context())
	r.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	return t.base.RoundTrip(r)
}

// Client returns a client that authorises its requests with tokens fetched with ctx.
func (c *Config) Client(ctx context.Context) *http.Client {
	base := clientFrom(ctx)
	rt := base.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	return &http.Client{Transport: &transport{src: c.NewSource(ctx), base: rt}, Timeout: base.Timeout}
}
