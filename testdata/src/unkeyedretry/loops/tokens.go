package loops

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Token requests of OAuth 2.0 (a form with grant_type) retried a few times: a repeat mints
// another token and changes nothing else, so they are not reported. A form POST that is not a
// token request is.

type tokenSource struct {
	hc           *http.Client
	tokenURL     string
	clientID     string
	clientSecret string
	scope        string
}

type accessToken struct {
	AccessToken string `json:"access_token"`
	ExpiresIn   int    `json:"expires_in"`
}

func decodeAccessToken(resp *http.Response) (*accessToken, error) {
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("token endpoint: %s", resp.Status)
	}
	var t accessToken
	if err := json.NewDecoder(resp.Body).Decode(&t); err != nil {
		return nil, fmt.Errorf("decode token: %w", err)
	}
	return &t, nil
}

// ClientCredentials posts the form with PostForm.
func (ts *tokenSource) ClientCredentials() (*accessToken, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		resp, err := ts.hc.PostForm(ts.tokenURL, url.Values{
			"grant_type":    {"client_credentials"},
			"client_id":     {ts.clientID},
			"client_secret": {ts.clientSecret},
		})
		if err != nil {
			lastErr = err
			log.Printf("token: attempt %d: %v", attempt+1, err)
			time.Sleep(time.Duration(attempt+1) * 500 * time.Millisecond)
			continue
		}
		return decodeAccessToken(resp)
	}
	return nil, lastErr
}

// Refresh builds the request itself, from an encoded form.
func (ts *tokenSource) Refresh(ctx context.Context, refreshToken string) (*accessToken, error) {
	form := url.Values{}
	form.Set("grant_type", "refresh_token")
	form.Set("refresh_token", refreshToken)
	form.Set("scope", ts.scope)
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, ts.tokenURL, strings.NewReader(form.Encode()))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.SetBasicAuth(ts.clientID, ts.clientSecret)
		resp, err := ts.hc.Do(req)
		if err != nil {
			lastErr = err
			continue
		}
		return decodeAccessToken(resp)
	}
	return nil, lastErr
}

// Subscribe posts a form that creates a subscription: reported.
func (ts *tokenSource) Subscribe(email string) error {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		resp, err := ts.hc.PostForm(ts.tokenURL+"/subscriptions", url.Values{ // related "tokens.go:90: retry loop" // want `POST /subscriptions is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
			"email":     {email},
			"client_id": {ts.clientID},
		})
		if err != nil {
			lastErr = err
			time.Sleep(time.Second)
			continue
		}
		resp.Body.Close()
		return nil
	}
	return lastErr
}
