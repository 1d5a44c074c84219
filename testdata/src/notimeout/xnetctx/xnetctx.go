// Package xnetctx still imports golang.org/x/net/context, whose functions are the standard
// library's: its Background has no deadline, its WithTimeout gives one.
package xnetctx

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/net/context"
)

// Token is an access token.
type Token struct {
	AccessToken string `json:"access_token"`
	ExpiresIn   int    `json:"expires_in"`
}

func fetchToken(ctx context.Context, tokenURL, id, secret string) (*Token, error) {
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {id}, "client_secret": {secret}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, tokenURL, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("token endpoint: %s", resp.Status)
	}
	tok := new(Token)
	if err := json.NewDecoder(resp.Body).Decode(tok); err != nil {
		return nil, fmt.Errorf("decode token: %w", err)
	}
	return tok, nil
}

// ---- Reported: x/net/context's Background has no deadline ----

// NewWithCredentials fetches the client's first token.
func NewWithCredentials(tokenURL, id, secret string) (*Token, error) {
	ctx := context.Background()
	return fetchToken(ctx, tokenURL, id, secret) // related "xnetctx.go:22: fetchToken passes its context to Client.Do" "xnetctx.go:49: context.Background() has no deadline" // want `fetchToken passes a context without a deadline to Client\.Do, so a stalled server hangs this call`
}

// ---- Not reported: x/net/context's WithTimeout gives it a deadline ----

// Refresh fetches a new token within ten seconds.
func Refresh(tokenURL, id, secret string) (*Token, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return fetchToken(ctx, tokenURL, id, secret)
}
