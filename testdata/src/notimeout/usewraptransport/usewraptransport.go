// Package usewraptransport is a backend of the sync tool: it fetches tokens and metadata through
// the clients wraptransport makes.
package usewraptransport

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"notimeout/wraptransport"
)

type token struct {
	AccessToken string `json:"access_token"`
	ExpiresIn   int    `json:"expires_in"`
}

// ---- Not reported ----

// fetchToken posts a form and decodes the answer: the request is written at once and the
// transport's ResponseHeaderTimeout bounds the wait for the answer.
func fetchToken(ctx context.Context, tokenURL, id, secret string) (*token, error) {
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {id}, "client_secret": {secret}}
	req, err := http.NewRequest(http.MethodPost, tokenURL, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	client := wraptransport.NewClient(ctx)
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("token: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("token: %s", resp.Status)
	}
	var t token
	if err := json.NewDecoder(resp.Body).Decode(&t); err != nil {
		return nil, fmt.Errorf("token: decode: %w", err)
	}
	return &t, nil
}

// exchange trades a signed assertion for a token, through the client it is given, with a
// request that has no context.
func exchange(client *http.Client, tokenURL, assertion string) (*token, error) {
	form := url.Values{"grant_type": {"urn:ietf:params:oauth:grant-type:jwt-bearer"}, "assertion": {assertion}}
	req, err := http.NewRequest(http.MethodPost, tokenURL, bytes.NewBufferString(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("exchange: %w", err)
	}
	defer resp.Body.Close()
	var t token
	if err := json.NewDecoder(resp.Body).Decode(&t); err != nil {
		return nil, fmt.Errorf("exchange: decode: %w", err)
	}
	return &t, nil
}

// signIn hands exchange a client whose transport bounds the wait for the answer.
func signIn(ctx context.Context, tokenURL, assertion string) (*token, error) {
	return exchange(wraptransport.NewClient(ctx), tokenURL, assertion)
}

// ---- Reported ----

// signInTraced hands exchange a client whose transport bounds only the connect.
func signInTraced(tokenURL, assertion string) (*token, error) {
	return exchange(wraptransport.NewTracedClient("token"), tokenURL, assertion) // related "usewraptransport.go:52: exchange sends requests through the http.Client it is given" "usewraptransport.go:80: wraptransport.NewTracedClient returns an http.Client without a Timeout" "usewraptransport.go:54: http.NewRequest gives the request no context" // want `exchange sends a request without a context through this http\.Client \(no Timeout\), so a stalled server hangs this call`
}

// about asks the server for its version through a client whose transport bounds only the
// connect.
func about(endpoint string) (string, error) {
	client := wraptransport.NewTracedClient("about")
	resp, err := client.Get(endpoint + "/about") // related "usewraptransport.go:86: wraptransport.NewTracedClient returns an http.Client without a Timeout" // want `this http\.Client has no Timeout and the request has no context, so a stalled server hangs this call; set Timeout`
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var v struct {
		Version string `json:"version"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		return "", err
	}
	return v.Version, nil
}
