// Package throttleonly: a generated dashboard SDK on resty. Its two retry helpers send again
// only when the API answered 429 (rate limited: the request was not applied); every other
// answer, and every transport error, goes back to the caller at once. resty hands back a
// response even when the request failed (status 0), so the helpers' resp != nil tests always
// hold. A helper over net/http, whose response is nil on a transport error, resends a POST
// after a temporary error and is reported.
package throttleonly

import (
	"encoding/json"
	"fmt"
	"log"
	"math/rand"
	"net"
	"net/http"
	"time"

	"github.com/go-resty/resty/v2"
)

type Backoff struct {
	MaxRetries int
	MaxDelay   time.Duration
	MaxJitter  time.Duration
}

func backoffValues(b *Backoff) (int, time.Duration, time.Duration) {
	if b == nil {
		return 2, time.Second, 500 * time.Millisecond
	}
	return b.MaxRetries, b.MaxDelay, b.MaxJitter
}

func POST(path string, client *resty.Client, body any) (*resty.Response, error) { // want POST:"sends a POST request without an idempotency key"
	return client.R().SetHeader("Content-Type", "application/json").SetBody(body).Post(path)
}

// doWithRetriesAndResult sends again only on 429, decoding the first other answer.
func doWithRetriesAndResult[T any](operation func() (*resty.Response, error), backoff *Backoff) (*T, *resty.Response, error) {
	var result *T
	var resp *resty.Response
	var err error
	maxRetries, maxDelay, maxJitter := backoffValues(backoff)
	for attempt := 0; attempt <= maxRetries; attempt++ {
		resp, err = operation()
		if err != nil && resp.StatusCode() != http.StatusTooManyRequests {
			log.Printf("request failed: %v", err)
			return nil, resp, err
		}
		if resp.IsError() && resp.StatusCode() != http.StatusTooManyRequests {
			return nil, resp, fmt.Errorf("status %d", resp.StatusCode())
		}
		if resp != nil && resp.StatusCode() != http.StatusTooManyRequests {
			if err := json.Unmarshal(resp.Body(), &result); err != nil {
				return nil, resp, err
			}
			return result, resp, nil
		}
		wait := maxDelay*time.Duration(1<<attempt) + time.Duration(rand.Int63n(int64(maxJitter)))
		log.Printf("attempt %d: rate limited, waiting %v", attempt+1, wait)
		time.Sleep(wait)
	}
	return nil, resp, fmt.Errorf("failed after %d attempts", maxRetries+1)
}

// doWithRetriesAndNotResult sends again on 429; a temporary transport error falls through
// to a test that resty's response (status 0) passes, and goes back to the caller.
func doWithRetriesAndNotResult(operation func() (*resty.Response, error), backoff *Backoff) (*resty.Response, error) {
	var resp *resty.Response
	var err error
	maxRetries, maxDelay, maxJitter := backoffValues(backoff)
	for attempt := 0; attempt <= maxRetries; attempt++ {
		resp, err = operation()
		if err != nil {
			if nerr, ok := err.(net.Error); ok && nerr.Timeout() {
				// go on below
			} else {
				return resp, err
			}
		}
		if resp != nil && resp.StatusCode() != http.StatusTooManyRequests {
			return resp, nil
		}
		wait := maxDelay*time.Duration(1<<attempt) + time.Duration(rand.Int63n(int64(maxJitter)))
		time.Sleep(wait)
	}
	return resp, fmt.Errorf("failed after %d attempts", maxRetries+1)
}

type Network struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type Service struct {
	client  *resty.Client
	backoff *Backoff
}

func (s *Service) CreateNetwork(org string, n *Network) (*Network, *resty.Response, error) {
	path := "/api/v1/organizations/" + org + "/networks"
	return doWithRetriesAndResult[Network](func() (*resty.Response, error) {
		return POST(path, s.client, n)
	}, s.backoff)
}

func (s *Service) ClaimDevices(network string, serials []string) (*resty.Response, error) {
	path := "/api/v1/networks/" + network + "/devices/claim"
	return doWithRetriesAndNotResult(func() (*resty.Response, error) {
		return POST(path, s.client, map[string][]string{"serials": serials})
	}, s.backoff)
}

func (s *Service) ReleaseDevices(network string, serials []string) (*resty.Response, error) {
	path := "/api/v1/networks/" + network + "/devices/remove"
	return doWithRetriesAndNotResult(func() (*resty.Response, error) {
		return POST(path, s.client, map[string][]string{"serials": serials})
	}, s.backoff)
}
