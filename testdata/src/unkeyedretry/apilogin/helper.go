package apilogin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// A storage client whose one request helper retries every request it sends on 429 and 5xx.
// Its token refresh decodes the answer straight into the field it sends as Authorization: a
// sign-in, not reported; its folder create, sent through the same helper, is.

type token struct {
	AccessToken  string    `json:"access_token"`
	RefreshToken string    `json:"refresh_token"`
	Expiry       time.Time `json:"expiry"`
}

type Storage struct {
	hc         *http.Client
	base       string
	refreshURL string
	token      *token
}

func (s *Storage) call(url, method string, input any) (io.ReadCloser, error) {
	backoff := time.Second
	for i := 0; i < 8; i++ { // related "helper.go:80: POST /folders sent here" // want `the retry loop in Storage\.call retries POST /folders without an idempotency key, so a retry can repeat its effect`
		var body io.Reader
		if input != nil {
			data, err := json.Marshal(input)
			if err != nil {
				return nil, err
			}
			body = bytes.NewReader(data)
		}
		req, err := http.NewRequest(method, url, body)
		if err != nil {
			return nil, err
		}
		if url != s.refreshURL && s.token != nil {
			req.Header.Set("Authorization", "Bearer "+s.token.AccessToken)
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := s.hc.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
			resp.Body.Close()
			time.Sleep(backoff)
			backoff *= 2
			continue
		}
		if resp.StatusCode >= 300 {
			defer resp.Body.Close()
			msg, _ := io.ReadAll(resp.Body)
			return nil, fmt.Errorf("%s %s: %d %s", method, url, resp.StatusCode, msg)
		}
		return resp.Body, nil
	}
	return nil, fmt.Errorf("%s %s: too many retries", method, url)
}

// refresh posts the refresh token and decodes the new token into s.token.
func (s *Storage) refresh() error {
	rc, err := s.call(s.refreshURL, http.MethodPost, s.token)
	if err != nil {
		return err
	}
	defer rc.Close()
	return json.NewDecoder(rc).Decode(&s.token)
}

// CreateFolder creates a folder: a POST retried by call, reported there.
func (s *Storage) CreateFolder(parent, name string) (string, error) {
	rc, err := s.call(s.base+"/folders", http.MethodPost, map[string]string{"parent": parent, "name": name})
	if err != nil {
		return "", err
	}
	defer rc.Close()
	var out struct {
		ID string `json:"id"`
	}
	return out.ID, json.NewDecoder(rc).Decode(&out)
}
