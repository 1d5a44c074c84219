package loops

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// A secrets-manager client that writes a value and, when the answer names a cause it can cure
// (an expired token, too many stored versions), cures it and writes again. The rounds depend
// on what the server answered, as the program's own predicates read it; a failing dependency
// (no answer, a 5xx) ends the loop. It recovers; it does not retry.

type secretsError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *secretsError) Error() string { return fmt.Sprintf("secrets: code %d: %s", e.Code, e.Message) }

const (
	codeUnauthenticated = 16
	codeTooManyVersions = 8
)

func isExpiredToken(err error) bool {
	var se *secretsError
	return errors.As(err, &se) && se.Code == codeUnauthenticated
}

func isVersionLimit(err error) bool {
	var se *secretsError
	if errors.As(err, &se) && (se.Code == codeTooManyVersions || strings.Contains(se.Message, "versions")) {
		return true
	}
	return false
}

// isTemporary is true for timeouts and refused connections: the dependency's own failures.
func isTemporary(err error) bool {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	var op *net.OpError
	return errors.As(err, &op)
}

type secretStore struct {
	hc           *http.Client
	base, app    string
	clientID     string
	clientSecret string
	token        string
	expires      time.Time
}

func decodeSecretsError(resp *http.Response) error {
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("read error body: %w", err)
	}
	var se secretsError
	if err := json.Unmarshal(body, &se); err != nil {
		return fmt.Errorf("decode error body (status %d): %w", resp.StatusCode, err)
	}
	return &se
}

func (s *secretStore) fetchToken() error {
	resp, err := s.hc.PostForm(s.base+"/oauth/token", url.Values{
		"grant_type":    {"client_credentials"},
		"client_id":     {s.clientID},
		"client_secret": {s.clientSecret},
	})
	if err != nil {
		return fmt.Errorf("token: %w", err)
	}
	defer resp.Body.Close()
	var tok struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int    `json:"expires_in"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&tok); err != nil {
		return fmt.Errorf("token: decode: %w", err)
	}
	s.token, s.expires = tok.AccessToken, time.Now().Add(time.Duration(tok.ExpiresIn)*time.Second)
	return nil
}

func (s *secretStore) write(name, value string) error {
	body, err := json.Marshal(map[string]string{"name": name, "value": value})
	if err != nil {
		return err
	}
	req, err := http.NewRequest(http.MethodPut, s.base+"/apps/"+s.app+"/secrets", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+s.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := s.hc.Do(req)
	if err != nil {
		return fmt.Errorf("write secret: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return decodeSecretsError(resp)
	}
	return nil
}

func (s *secretStore) deleteVersions(name string) error {
	req, err := http.NewRequest(http.MethodDelete, s.base+"/apps/"+s.app+"/secrets/"+name, http.NoBody)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+s.token)
	resp, err := s.hc.Do(req)
	if err != nil {
		return fmt.Errorf("delete secret: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return decodeSecretsError(resp)
	}
	return nil
}

// Set goes round only on an expired token (after fetching one, once) or a version limit (after
// deleting the old versions): not reported.
func (s *secretStore) Set(name, value string) error {
	refreshed := 0
	for {
		if s.token == "" || time.Now().After(s.expires) {
			if err := s.fetchToken(); err != nil {
				return fmt.Errorf("ensure token: %w", err)
			}
		}
		err := s.write(name, value)
		if err == nil {
			return nil
		}
		if isExpiredToken(err) && refreshed < 1 {
			if err := s.fetchToken(); err != nil {
				return fmt.Errorf("refresh token: %w", err)
			}
			refreshed++
			continue
		}
		if isVersionLimit(err) {
			log.Printf("secret %s: version limit, deleting old versions", name)
			if err := s.deleteVersions(name); err != nil {
				return fmt.Errorf("delete after version limit: %w", err)
			}
			continue
		}
		return err
	}
}

// SetEventually goes round on the dependency's own failures, reconnecting each time, at once
// and for ever: reported.
func (s *secretStore) SetEventually(name, value string) error {
	for { // related "secretstore.go:173: retry loop" // want `retry loop goes round without waiting and never stops, so it hammers a failing dependency; add a jittered wait and a cap`
		err := s.write(name, value)
		if err == nil {
			return nil
		}
		if isTemporary(err) {
			if err := s.fetchToken(); err != nil {
				return fmt.Errorf("refresh token: %w", err)
			}
			continue
		}
		return err
	}
}

// storeError is a store's error that says itself whether it may be retried: a failed
// connection says yes too.
type storeError struct {
	Labels []string
	Err    error
}

func (e *storeError) Error() string { return e.Err.Error() }

func (e *storeError) Retryable() bool {
	for _, l := range e.Labels {
		if l == "RetryableRead" || l == "NetworkError" {
			return true
		}
	}
	return false
}

type storeCursor struct {
	servers []string
	active  int
	open    func(server string) error
}

func (c *storeCursor) reselect() error {
	if len(c.servers) == 0 {
		return errors.New("no servers")
	}
	c.active = (c.active + 1) % len(c.servers)
	return nil
}

// Open goes round on what the error's own verdict calls retryable, after selecting a server
// again, at once, as many times as it is told (without end when forever): reported.
func (c *storeCursor) Open(forever bool) error {
	retries := 1
	if forever {
		retries = -1
	}
	var err error
	for { // related "secretstore.go:228: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		err = c.open(c.servers[c.active])
		if err == nil || retries == 0 {
			break
		}
		var se *storeError
		if !errors.As(err, &se) || !se.Retryable() {
			break
		}
		retries--
		if err = c.reselect(); err != nil {
			break
		}
	}
	return err
}
