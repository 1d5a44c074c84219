// Package batchid: an event-tracking client uploads batches of queued messages and retries a
// failed upload. The batch carries a message id made once, before the retries, by the id
// function the client is configured with (uuid by default), and is marshalled once: every
// attempt sends the same bytes, with the same id, which the receiver deduplicates on. Not
// reported. A batch remarshalled on every attempt with a new id is: the receiver cannot tell
// a retry from a new batch.
package batchid

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"strconv"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	"github.com/google/uuid"
)

type message struct {
	Type      string            `json:"type"`
	MessageID string            `json:"messageId"`
	UserID    string            `json:"userId"`
	Props     map[string]string `json:"properties,omitempty"`
	Timestamp time.Time         `json:"timestamp"`
}

type batch struct {
	MessageID string    `json:"messageId"`
	SentAt    time.Time `json:"sentAt"`
	Messages  []message `json:"batch"`
}

type Config struct {
	Endpoint   string
	RetryAfter func(attempt int) time.Duration
	uid        func() string
}

func uid() string { return uuid.NewString() }

type client struct {
	Config
	key  string
	http *http.Client
	quit chan struct{}
}

func New(key string, cfg Config) *client {
	if cfg.uid == nil {
		cfg.uid = uid
	}
	if cfg.RetryAfter == nil {
		cfg.RetryAfter = func(int) time.Duration { return time.Second }
	}
	return &client{Config: cfg, key: key, http: &http.Client{Timeout: 10 * time.Second}, quit: make(chan struct{})}
}

// upload sends one serialised batch.
func (c *client) upload(b []byte) error {
	req, err := http.NewRequest(http.MethodPost, c.Endpoint+"/v1/batch", bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Add("Content-Type", "application/json")
	req.Header.Add("Content-Length", strconv.Itoa(len(b)))
	req.SetBasicAuth(c.key, "")
	res, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode >= 300 {
		body, _ := io.ReadAll(res.Body)
		return fmt.Errorf("%d %s: %s", res.StatusCode, res.Status, body)
	}
	return nil
}

// send marshals the batch once, with its id, and retries the upload: not reported.
func (c *client) send(msgs []message) {
	b, err := json.Marshal(batch{MessageID: c.uid(), SentAt: time.Now(), Messages: msgs})
	if err != nil {
		log.Printf("marshalling messages: %v", err)
		return
	}
	for i := 0; i != 10; i++ {
		if err = c.upload(b); err == nil {
			return
		}
		select {
		case <-time.After(c.RetryAfter(i)):
		case <-c.quit:
			log.Printf("%d messages dropped: client closed", len(msgs))
			return
		}
	}
	log.Printf("%d messages dropped after 10 attempts: %v", len(msgs), err)
}

// sendFresh marshals the batch again on every attempt, with a new id each time: reported.
func (c *client) sendFresh(msgs []message) {
	for i := 0; i != 10; i++ {
		b, err := json.Marshal(batch{MessageID: c.uid(), SentAt: time.Now(), Messages: msgs})
		if err != nil {
			log.Printf("marshalling messages: %v", err)
			return
		}
		if err = c.upload(b); err == nil { // related "batchid.go:107: retry loop" "batchid.go:72: sent here by upload" // want `POST /v1/batch is retried with no idempotency key; upload must send one made before the retries`
			return
		}
		select {
		case <-time.After(c.RetryAfter(i)):
		case <-c.quit:
			return
		}
	}
}

// sendWithRetry makes the id before the retry helper and marshals the batch in its callback:
// the same id on every attempt. Not reported.
func (c *client) sendWithRetry(ctx context.Context, msgs []message) error {
	id := c.uid()
	return retrygo.Do(func() error {
		b, err := json.Marshal(batch{MessageID: id, SentAt: time.Now(), Messages: msgs})
		if err != nil {
			return retrygo.Unrecoverable(err)
		}
		return c.upload(b)
	}, retrygo.Attempts(5), retrygo.Context(ctx), retrygo.MaxJitter(time.Second))
}

// sendWithRetryFresh makes the id in the callback: a new one on every attempt. Reported.
func (c *client) sendWithRetryFresh(ctx context.Context, msgs []message) error {
	return retrygo.Do(func() error {
		b, err := json.Marshal(batch{MessageID: c.uid(), SentAt: time.Now(), Messages: msgs})
		if err != nil {
			return retrygo.Unrecoverable(err)
		}
		return c.upload(b) // related "batchid.go:139: retry callback" "batchid.go:72: sent here by upload" // want `POST /v1/batch is retried with no idempotency key; upload must send one made before the retries`
	}, retrygo.Attempts(5), retrygo.Context(ctx), retrygo.MaxJitter(time.Second))
}

// sendStamped marshals the batch once, with the time it is sent and no id: a time identifies
// nothing (two batches sent in one instant carry the same one). Reported.
func (c *client) sendStamped(msgs []message) error {
	b, err := json.Marshal(batch{SentAt: time.Now(), Messages: msgs})
	if err != nil {
		return err
	}
	for i := 0; ; i++ {
		if err = c.upload(b); err == nil || i == 3 { // related "batchid.go:155: retry loop" "batchid.go:72: sent here by upload" // want `POST /v1/batch is retried with no idempotency key; upload must send one made before the retries`
			return err
		}
		time.Sleep(c.RetryAfter(i))
	}
}
