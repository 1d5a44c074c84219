// Package trydo is an SDK whose requests go through matryer/try: the callback says whether to
// go on, and sleeps before it does. A builder helper makes each request in one of two ways
// (with a body or without), for the method it is given.
package trydo

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"
	"time"

	"github.com/matryer/try"
)

type Client struct {
	http   *http.Client
	base   string
	sdkKey string
}

func New(base, key string) *Client {
	return &Client{http: &http.Client{Timeout: 10 * time.Second}, base: base, sdkKey: key}
}

func backoff(attempt int) time.Duration {
	return time.Duration(math.Pow(2, float64(attempt))*100) * time.Millisecond
}

// prepare makes the request, with a body or without one.
func (c *Client) prepare(path, method string, body []byte) (localVarRequest *http.Request, err error) {
	if body != nil {
		localVarRequest, err = http.NewRequest(method, c.base+path, bytes.NewReader(body))
	} else {
		localVarRequest, err = http.NewRequest(method, c.base+path, nil)
	}
	if err != nil {
		return nil, err
	}
	localVarRequest.Header.Set("Content-Type", "application/json")
	localVarRequest.Header.Set("Authorization", c.sdkKey)
	return localVarRequest, nil
}

func (c *Client) perform(method, path string, payload any) ([]byte, error) {
	var body []byte
	if payload != nil {
		b, err := json.Marshal(payload)
		if err != nil {
			return nil, err
		}
		body = b
	}
	var out []byte
	err := try.Do(func(attempt int) (bool, error) { // related "trydo.go:94: POST /v1/track sent here" // want `try\.Do in Client\.perform retries POST /v1/track without an idempotency key, so a retry can repeat its effect`
		req, err := c.prepare(path, method, body)
		if err != nil {
			return false, err
		}
		resp, err := c.http.Do(req)
		if err != nil {
			time.Sleep(backoff(attempt))
			return attempt <= 5, err
		}
		defer resp.Body.Close()
		out, err = io.ReadAll(resp.Body)
		if err == nil && resp.StatusCode >= 500 {
			err = errors.New("5xx error on request")
		}
		if err != nil {
			time.Sleep(backoff(attempt))
		}
		return attempt <= 5, err
	})
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	return out, nil
}

type Event struct {
	Type   string `json:"type"`
	Target string `json:"target"`
}

// ---- Reported: events are posted again on a 5xx, with no key ----

func (c *Client) Track(user string, events []Event) error {
	method := strings.ToUpper("Post") // as a generated client spells it
	_, err := c.perform(method, "/v1/track", map[string]any{"user": user, "events": events})
	return err
}

// ---- Not reported: a GET ----

func (c *Client) Config() ([]byte, error) {
	return c.perform(http.MethodGet, "/v1/config", nil)
}
