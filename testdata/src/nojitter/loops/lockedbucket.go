package loops

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"sync"
	"time"
)

// A bot SDK whose request helper holds a locked rate-limit bucket and calls itself: on a 502
// with the next sequence number and the bucket locked again (no wait), on a 429 after the
// wait the server names in its JSON body, with the same sequence number.

type botBucket struct {
	sync.Mutex
	Key       string
	Remaining int
	reset     time.Time
}

type botLimiter struct {
	mu      sync.Mutex
	buckets map[string]*botBucket
}

// lockBucket waits for the bucket's window and returns it locked.
func (r *botLimiter) lockBucket(b *botBucket) *botBucket {
	b.Lock()
	if b.Remaining < 1 && time.Now().Before(b.reset) {
		time.Sleep(time.Until(b.reset))
	}
	b.Remaining--
	return b
}

func (b *botBucket) release(h http.Header) error {
	defer b.Unlock()
	if h == nil {
		return nil
	}
	if h.Get("X-RateLimit-Remaining") == "0" {
		b.Remaining = 0
	}
	return nil
}

type tooManyRequests struct {
	Bucket     string        `json:"bucket"`
	Message    string        `json:"message"`
	RetryAfter time.Duration `json:"retry_after"`
}

type botSession struct {
	Token       string
	UserAgent   string
	Debug       bool
	MaxRetries  int
	RetryOn429  bool
	Client      *http.Client
	Ratelimiter *botLimiter
}

func (s *botSession) requestLocked(method, url, contentType string, body []byte, bucket *botBucket, sequence int) (response []byte, err error) { // related "lockedbucket.go:67: retrying recursion", "lockedbucket.go:103: goes round here without waiting", "lockedbucket.go:67: retrying recursion" // want `retrying function requestLocked goes round without waiting after some failures: it hammers a failing dependency` `retrying function requestLocked retries for ever \(no attempt cap, no deadline\); pass down how many attempts are left`
	req, err := http.NewRequest(method, url, bytes.NewBuffer(body))
	if err != nil {
		bucket.release(nil)
		return
	}
	if s.Token != "" {
		req.Header.Set("authorization", s.Token)
	}
	if body != nil {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("User-Agent", s.UserAgent)

	resp, err := s.Client.Do(req)
	if err != nil {
		bucket.release(nil)
		return
	}
	defer func() {
		if err := resp.Body.Close(); err != nil && s.Debug {
			log.Println("closing response body:", err)
		}
	}()
	if err = bucket.release(resp.Header); err != nil {
		return
	}
	response, err = io.ReadAll(resp.Body)
	if err != nil {
		return
	}
	if s.Debug {
		log.Printf("API RESPONSE %s: %s", resp.Status, response)
	}

	switch resp.StatusCode {
	case http.StatusOK, http.StatusCreated, http.StatusNoContent:
	case http.StatusBadGateway:
		if sequence < s.MaxRetries {
			log.Printf("%s failed (%s), retrying", url, resp.Status)
			response, err = s.requestLocked(method, url, contentType, body, s.Ratelimiter.lockBucket(bucket), sequence+1)
		} else {
			err = fmt.Errorf("exceeded max retries: %s", resp.Status)
		}
	case http.StatusTooManyRequests:
		rl := tooManyRequests{}
		if err = json.Unmarshal(response, &rl); err != nil {
			return
		}
		if s.RetryOn429 {
			log.Printf("rate limited on %s, retrying in %v", url, rl.RetryAfter)
			time.Sleep(rl.RetryAfter)
			response, err = s.requestLocked(method, url, contentType, body, s.Ratelimiter.lockBucket(bucket), sequence)
		} else {
			err = fmt.Errorf("rate limited: %s", rl.Message)
		}
	default:
		err = fmt.Errorf("HTTP %s: %s", resp.Status, response)
	}
	return
}

// ---- Not reported ----

// requestCounted waits as the server asks on a 429 and counts every way back: the server
// spreads its clients, and the count ends the retries.
func (s *botSession) requestCounted(method, url string, body []byte, bucket *botBucket, sequence int) ([]byte, error) {
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		bucket.release(nil)
		return nil, err
	}
	req.Header.Set("authorization", s.Token)
	resp, err := s.Client.Do(req)
	if err != nil {
		bucket.release(nil)
		return nil, err
	}
	defer resp.Body.Close()
	if err := bucket.release(resp.Header); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	switch resp.StatusCode {
	case http.StatusOK, http.StatusCreated, http.StatusNoContent:
		return data, nil
	case http.StatusTooManyRequests:
		var rl tooManyRequests
		if err := json.Unmarshal(data, &rl); err != nil {
			return nil, err
		}
		if sequence >= s.MaxRetries {
			return nil, fmt.Errorf("rate limited: %s", rl.Message)
		}
		time.Sleep(rl.RetryAfter)
		return s.requestCounted(method, url, body, s.Ratelimiter.lockBucket(bucket), sequence+1)
	}
	return nil, fmt.Errorf("HTTP %s", resp.Status)
}
