// Package oauth2 is a stand-in for golang.org/x/oauth2 with the parts of its API the tests use:
// a Config whose Client and TokenSource keep the context they are given to refresh the token
// at the token endpoint once it expires.
package oauth2

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2/internal"
)

type Endpoint struct {
	AuthURL  string
	TokenURL string
}

type Config struct {
	ClientID     string
	ClientSecret string
	Endpoint     Endpoint
	Scopes       []string
}

type Token struct {
	AccessToken  string    `json:"access_token"`
	TokenType    string    `json:"token_type,omitempty"`
	RefreshToken string    `json:"refresh_token,omitempty"`
	Expiry       time.Time `json:"expiry,omitempty"`
}

// Valid reports whether t has an access token that has not expired (no Expiry: never).
func (t *Token) Valid() bool {
	return t != nil && t.AccessToken != "" && (t.Expiry.IsZero() || time.Now().Before(t.Expiry))
}

type TokenSource interface {
	Token() (*Token, error)
}

type tokenRefresher struct {
	ctx          context.Context
	conf         *Config
	refreshToken string
}

// Token asks the token endpoint for a new token with the refresh token.
func (tf *tokenRefresher) Token() (*Token, error) {
	if tf.refreshToken == "" {
		return nil, errors.New("oauth2: token expired and refresh token is not set")
	}
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tf.refreshToken}}
	req, err := http.NewRequestWithContext(tf.ctx, http.MethodPost, tf.conf.Endpoint.TokenURL, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(tf.conf.ClientID, tf.conf.ClientSecret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var tok Token
	if err := json.NewDecoder(resp.Body).Decode(&tok); err != nil {
		return nil, err
	}
	if tok.RefreshToken == "" {
		tok.RefreshToken = tf.refreshToken
	}
	return &tok, nil
}

type reuseTokenSource struct {
	mu  sync.Mutex
	t   *Token
	new TokenSource
}

func (s *reuseTokenSource) Token() (*Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.t.Valid() {
		return s.t, nil
	}
	t, err := s.new.Token()
	if err != nil {
		return nil, err
	}
	s.t = t
	return t, nil
}

// TokenSource returns a source that returns t until it expires, then refreshes it with ctx.
func (c *Config) TokenSource(ctx context.Context, t *Token) TokenSource {
	tkr := &tokenRefresher{ctx: ctx, conf: c}
	if t != nil {
		tkr.refreshToken = t.RefreshToken
	}
	return &reuseTokenSource{t: t, new: tkr}
}

// Client returns an HTTP client that authorises its requests with t, refreshed with ctx.
func (c *Config) Client(ctx context.Context, t *Token) *http.Client {
	return NewClient(ctx, c.TokenSource(ctx, t))
}

type Transport struct {
	Source TokenSource
	Base   http.RoundTripper
}

func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	tok, err := t.Source.Token()
	if err != nil {
		return nil, err
	}
	r := req.Clone(req.Context())
	r.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	return t.Base.RoundTrip(r)
}

// NewClient returns a client whose requests carry src's tokens.
func NewClient(ctx context.Context, src TokenSource) *http.Client {
	return &http.Client{Transport: &Transport{Source: src, Base: http.DefaultTransport}}
}

// PasswordCredentialsToken asks the token endpoint for a token with the resource owner's
// password (the password grant).
func (c *Config) PasswordCredentialsToken(ctx context.Context, username, password string) (*Token, error) {
	v := url.Values{"grant_type": {"password"}, "username": {username}, "password": {password}}
	if len(c.Scopes) > 0 {
		v.Set("scope", strings.Join(c.Scopes, " "))
	}
	tk, err := internal.RetrieveToken(ctx, c.ClientID, c.ClientSecret, c.Endpoint.TokenURL, v)
	if err != nil {
		return nil, err
	}
	return &Token{AccessToken: tk.AccessToken, TokenType: tk.TokenType, RefreshToken: tk.RefreshToken, Expiry: time.Now().Add(time.Duration(tk.ExpiresIn) * time.Second)}, nil
}
