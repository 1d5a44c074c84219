// Package watchcli is a secrets CLI: its API helper retries rate limits and 5xx, and returns
// its outcome as a struct that holds the error, which callers test with IsNil.
package watchcli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net/http"
	"time"
)

// APIError is the outcome of an API call: the error, what the server said, and its status.
type APIError struct {
	Err     error
	Message string
	Code    int
}

// IsNil reports whether the call succeeded.
func (e *APIError) IsNil() bool { return e.Err == nil && e.Message == "" }

func (e *APIError) Unwrap() error { return e.Err }

var client = &http.Client{Timeout: 30 * time.Second}

// request sends req up to 5 times while the server answers 429 or 5xx or the connection fails.
func request(req *http.Request) (*http.Response, APIError) {
	var lastErr error
	for attempt := range 5 {
		if attempt > 0 {
			d := time.Duration(1<<attempt) * 250 * time.Millisecond
			time.Sleep(d/2 + rand.N(d/2))
		}
		resp, err := client.Do(req)
		if err != nil {
			lastErr = err
			continue
		}
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
			resp.Body.Close()
			lastErr = fmt.Errorf("server answered %s", resp.Status)
			continue
		}
		if resp.StatusCode >= 400 {
			defer resp.Body.Close()
			b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
			return nil, APIError{Err: errors.New(resp.Status), Message: string(b), Code: resp.StatusCode}
		}
		return resp, APIError{}
	}
	return nil, APIError{Err: lastErr, Message: "giving up after 5 attempts"}
}

// watchSecrets streams change events until the connection ends.
func watchSecrets(ctx context.Context, host, token string, handle func([]byte)) (int, APIError) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, host+"/v3/secrets/watch", nil)
	if err != nil {
		return 0, APIError{Err: err}
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "text/event-stream")
	resp, herr := request(req)
	if !herr.IsNil() {
		return herr.Code, herr
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		handle(sc.Bytes())
	}
	return resp.StatusCode, APIError{Err: sc.Err(), Message: "stream ended"}
}

// Watch reconnects after the stream fails, backing off with jitter, for as long as the
// context lasts; each reconnect goes through request, which retries up to 5 times itself.
func Watch(ctx context.Context, host, token string, handle func([]byte)) {
	sleep := time.Second
	var reconnect func()
	reconnect = func() {
		code, herr := watchSecrets(ctx, host, token, handle) // related "watchcli.go:85: outer retrying recursion" "watchcli.go:35: inner retry loop" // want `retries around watchSecrets, which retries up to 5 times: attempts multiply on transient failures; keep one layer`
		if !herr.IsNil() && ctx.Err() == nil {
			log.Printf("watch ended (status %d): %v", code, herr.Unwrap())
			sleep = min(2*sleep, time.Minute)
			time.Sleep(sleep/2 + rand.N(sleep/2))
			reconnect()
		}
	}
	reconnect()
}

// PollLogin waits while the server says the login is still pending (409): a poll on an
// answer, not a retry of a failure. Not reported.
func PollLogin(ctx context.Context, host, code string) (string, error) {
	deadline := time.Now().Add(5 * time.Minute)
	for {
		if time.Now().After(deadline) {
			return "", errors.New("login timed out")
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, host+"/v3/auth/token?code="+code, nil)
		if err != nil {
			return "", err
		}
		resp, herr := request(req)
		if !herr.IsNil() {
			if herr.Code == http.StatusConflict {
				time.Sleep(2 * time.Second)
				continue
			}
			return "", fmt.Errorf("login: %s: %w", herr.Message, herr.Unwrap())
		}
		var out struct {
			Token string `json:"token"`
		}
		err = json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		return out.Token, err
	}
}
