// Package sessionclient is an API session whose request path sets the timeout on the client it
// sends with: the caller's HTTPClient, or a new one when none is given. Setting it there does
// not touch http.DefaultClient, which the token refresh uses with a request that has no
// context: that refresh can hang for good.
package sessionclient

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

const DefaultTimeout = 120 * time.Second

type Session struct {
	Endpoint     string
	Timeout      time.Duration
	HTTPClient   *http.Client
	refreshToken string
	token        string
}

func (s *Session) Do(method, path string) (*http.Response, error) {
	client := s.HTTPClient
	if client == nil {
		client = &http.Client{}
	}
	client.Timeout = DefaultTimeout
	if s.Timeout != 0 {
		client.Timeout = s.Timeout
	}
	req, err := http.NewRequest(method, s.Endpoint+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+s.token)
	return client.Do(req)
}

type tokenResponse struct {
	AccessToken  string `json:"access_token"`
	RefreshToken string `json:"refresh_token"`
}

func (s *Session) Refresh() error {
	client := http.DefaultClient
	form := url.Values{}
	form.Set("grant_type", "refresh_token")
	form.Set("refresh_token", s.refreshToken)
	req, err := http.NewRequest(http.MethodPost, "https://iam.example.com/token", strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req) // related "sessionclient.go:53: http.NewRequest gives the request no context" // want `http\.DefaultClient has no Timeout and the request has no context, so a stalled server hangs this call; set Timeout`
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("token refresh: %s", resp.Status)
	}
	var tok tokenResponse
	if err := json.NewDecoder(resp.Body).Decode(&tok); err != nil {
		return err
	}
	s.token, s.refreshToken = tok.AccessToken, tok.RefreshToken
	return nil
}
