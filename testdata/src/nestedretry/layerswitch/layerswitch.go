// Package layerswitch is a monitoring API's SDK that retries either in its own loop, with a
// long jittered backoff, or in its HTTP client, as the user chooses.
package layerswitch

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log"
	"math/rand"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

type API struct {
	base       string
	token      string
	log        *log.Logger
	mu         sync.Mutex
	ownBackoff bool
	maxRetries uint
	minDelay   time.Duration
	maxDelay   time.Duration
}

func New(base, token string, ownBackoff bool) *API {
	return &API{base: base, token: token, log: log.Default(), ownBackoff: ownBackoff, maxRetries: 4, minDelay: time.Second, maxDelay: 30 * time.Second}
}

func (a *API) request(method, path string, data []byte, retries int) ([]byte, error) {
	req, err := retryablehttp.NewRequestWithContext(context.Background(), method, a.base+path, bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-Api-Token", a.token)
	req.Header.Set("Accept", "application/json")
	client := retryablehttp.NewClient()
	client.HTTPClient.Timeout = 30 * time.Second
	client.RetryWaitMin = a.minDelay
	client.RetryWaitMax = a.maxDelay
	client.RetryMax = retries
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s %s: code %d: %s", method, path, resp.StatusCode, body)
	}
	return body, nil
}

// call sends once through a client that retries on its own only when the SDK's own backoff
// is off.
func (a *API) call(method, path string, data []byte) ([]byte, error) {
	req, err := retryablehttp.NewRequestWithContext(context.Background(), method, a.base+path, bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-Api-Token", a.token)
	client := retryablehttp.NewClient()
	client.HTTPClient.Timeout = 30 * time.Second
	a.mu.Lock()
	own := a.ownBackoff
	a.mu.Unlock()
	if own {
		client.RetryMax = 0 // one request: the SDK's loop retries
	} else {
		client.RetryWaitMin = a.minDelay
		client.RetryWaitMax = a.maxDelay
		client.RetryMax = int(a.maxRetries)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s %s: code %d: %s", method, path, resp.StatusCode, body)
	}
	return body, nil
}

func (a *API) wait(attempt int) {
	d := time.Duration(1<<min(attempt, 5)) * time.Second
	d = d/2 + time.Duration(rand.Int63n(int64(d/2)))
	a.log.Printf("API call failed, retrying in %s", d)
	time.Sleep(d)
}

// ---- Not reported: the client's retries are off whenever the SDK's own loop retries ----

// Get fetches path, retrying in the SDK's loop when its backoff is on, else in the client.
func (a *API) Get(path string) ([]byte, error) {
	var body []byte
	var err error
	for attempt := 0; attempt < 8; attempt++ {
		body, err = a.call(http.MethodGet, path, nil)
		if err == nil {
			return body, nil
		}
		if !a.ownBackoff || strings.Contains(err.Error(), "code 404") {
			return nil, err
		}
		a.wait(attempt)
	}
	return nil, err
}

// list is call with the two settings the other way round: the client's retries are on unless
// the SDK's loop retries.
func (a *API) list(path string) ([]byte, error) {
	req, err := retryablehttp.NewRequestWithContext(context.Background(), http.MethodGet, a.base+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-Api-Token", a.token)
	client := retryablehttp.NewClient()
	client.HTTPClient.Timeout = 30 * time.Second
	if !a.ownBackoff {
		client.RetryMax = int(a.maxRetries)
	} else {
		client.RetryMax = 0
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

// List pages through path with the SDK's loop when its backoff is on.
func (a *API) List(path string) ([]byte, error) {
	var body []byte
	var err error
	for attempt := 0; attempt < 8; attempt++ {
		if body, err = a.list(path); err == nil {
			return body, nil
		}
		if !a.ownBackoff {
			return nil, err
		}
		a.wait(attempt)
	}
	return nil, err
}

// ---- Reported: the client retries on every path, and so does the loop around it ----

// Put stores data at path, retrying a failed request up to 8 times around a client that
// retries it up to 4 times itself.
func (a *API) Put(path string, data []byte) ([]byte, error) {
	var body []byte
	var err error
	for attempt := 0; attempt < 8; attempt++ {
		body, err = a.request(http.MethodPut, path, data, int(a.maxRetries)) // related "layerswitch.go:169: outer retry loop" "layerswitch.go:47: inner self-retrying client call" // want `retries up to 8 times around API\.request, which retries too: attempts multiply on transient failures; keep one layer`
		if err == nil {
			return body, nil
		}
		if strings.Contains(err.Error(), "code 404") {
			return nil, err
		}
		a.wait(attempt)
	}
	return nil, err
}
