// Package internal is a stand-in for golang.org/x/oauth2/internal: the token exchange, whose
// form (with the grant type) its callers in package oauth2 fill.
package internal

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// Token is the token endpoint's answer.
type Token struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	RefreshToken string `json:"refresh_token"`
	ExpiresIn    int64  `json:"expires_in"`
}

func newTokenRequest(tokenURL, clientID, clientSecret string, v url.Values) (*http.Request, error) {
	req, err := http.NewRequest("POST", tokenURL, strings.NewReader(v.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(url.QueryEscape(clientID), url.QueryEscape(clientSecret))
	return req, nil
}

func doTokenRoundTrip(ctx context.Context, req *http.Request) (*Token, error) {
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, fmt.Errorf("oauth2: cannot fetch token: %s", resp.Status)
	}
	var tok Token
	if err := json.NewDecoder(resp.Body).Decode(&tok); err != nil {
		return nil, err
	}
	return &tok, nil
}

// RetrieveToken asks the token endpoint at tokenURL for a token with the form v.
func RetrieveToken(ctx context.Context, clientID, clientSecret, tokenURL string, v url.Values) (*Token, error) {
	req, err := newTokenRequest(tokenURL, clientID, clientSecret, v)
	if err != nil {
		return nil, err
	}
	return doTokenRoundTrip(ctx, req)
}
