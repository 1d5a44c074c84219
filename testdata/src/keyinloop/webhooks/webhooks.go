// Package webhooks delivers events as Standard Webhooks: each message carries a webhook-id,
// the same on every delivery of that message, which receivers deduplicate on.
package webhooks

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"log"
	"net/http"
	"time"

	"github.com/google/uuid"
)

type Sender struct {
	client  *http.Client
	secret  []byte
	retries int
	backoff time.Duration
}

func New(secret []byte) *Sender {
	return &Sender{client: &http.Client{Timeout: 5 * time.Second}, secret: secret, retries: 3, backoff: time.Second}
}

func (s *Sender) sign(id string, at time.Time, body []byte) string {
	m := hmac.New(sha256.New, s.secret)
	fmt.Fprintf(m, "%s.%d.%s", id, at.Unix(), body)
	return "v1," + base64.StdEncoding.EncodeToString(m.Sum(nil))
}

// ---- Reported: a new message id on every attempt ----

func (s *Sender) Deliver(ctx context.Context, url string, body []byte) error {
	var last error
	for i := 0; i < s.retries; i++ {
		id := uuid.New().String() // related "webhooks.go:40: retry loop" "webhooks.go:48: sent as header \"webhook-id\"" // want `uuid\.New makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated; move it out`
		now := time.Now()
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("webhook-id", id)
		req.Header.Set("webhook-timestamp", fmt.Sprint(now.Unix()))
		req.Header.Set("webhook-signature", s.sign(id, now, body))
		resp, err := s.client.Do(req)
		if err == nil && resp.StatusCode < 300 {
			resp.Body.Close()
			return nil
		}
		if err == nil {
			resp.Body.Close()
			err = fmt.Errorf("webhook %s: %s", url, resp.Status)
		}
		last = err
		log.Printf("deliver to %s (attempt %d): %v", url, i+1, err)
		time.Sleep(s.backoff)
	}
	return last
}

// ---- Not reported: the message id is made once; the timestamp and signature may change ----

func (s *Sender) DeliverOnce(ctx context.Context, url string, body []byte) error {
	id := uuid.New().String()
	var last error
	for i := 0; i < s.retries; i++ {
		now := time.Now()
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("webhook-id", id)
		req.Header.Set("webhook-timestamp", fmt.Sprint(now.Unix()))
		req.Header.Set("webhook-signature", s.sign(id, now, body))
		resp, err := s.client.Do(req)
		if err == nil && resp.StatusCode < 300 {
			resp.Body.Close()
			return nil
		}
		if err == nil {
			resp.Body.Close()
			err = fmt.Errorf("webhook %s: %s", url, resp.Status)
		}
		last = err
		time.Sleep(s.backoff)
	}
	return last
}
