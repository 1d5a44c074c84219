// Package webhookcard posts cards to a chat webhook, retrying only while the service says it is
// rate-limited: by status, or by a message in a 200 answer's body naming the 429. Such a card
// was not posted, so posting it again cannot post it twice; retrying a 5xx can.
package webhookcard

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

const (
	maxAttempts      = 3
	rateLimitMessage = "Webhook endpoint returned HTTP error 429"
)

// Notifier posts cards.
type Notifier struct {
	hc      *http.Client
	url     string
	timeout time.Duration
}

func rateLimited(resp *http.Response, body []byte) bool {
	return resp.StatusCode == http.StatusTooManyRequests || strings.Contains(string(body), rateLimitMessage)
}

func overloaded(resp *http.Response) bool {
	return resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500
}

func retryAfter(resp *http.Response, attempt int) time.Duration {
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	return time.Duration(attempt) * 2 * time.Second
}

func (n *Notifier) post(ctx context.Context, card []byte) (*http.Response, []byte, error) {
	ctx, cancel := context.WithTimeout(ctx, n.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, n.url, bytes.NewReader(card))
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := n.hc.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4096))
	return resp, body, err
}

// ---- Not reported: only a rate-limited card goes round ----

// Send posts card.
func (n *Notifier) Send(ctx context.Context, card []byte) error {
	for attempt := 1; attempt <= maxAttempts; attempt++ {
		resp, body, err := n.post(ctx, card)
		if err != nil {
			return fmt.Errorf("post card: %w", err)
		}
		if resp.StatusCode >= 200 && resp.StatusCode < 300 && !rateLimited(resp, body) {
			return nil
		}
		err = fmt.Errorf("post card: %s: %s", resp.Status, body)
		if !rateLimited(resp, body) || attempt == maxAttempts {
			return err
		}
		time.Sleep(retryAfter(resp, attempt))
	}
	return nil
}

// ---- Reported: a 5xx goes round too, and the card may have been posted ----

// SendEager posts card, retrying while the service is overloaded.
func (n *Notifier) SendEager(ctx context.Context, card []byte) error {
	for attempt := 1; attempt <= maxAttempts; attempt++ {
		resp, body, err := n.post(ctx, card) // related "webhookcard.go:86: retry loop" "webhookcard.go:52: sent here by post" // want `a POST request is retried with no idempotency key; post must send one made before the retries`
		if err != nil {
			return fmt.Errorf("post card: %w", err)
		}
		if resp.StatusCode >= 200 && resp.StatusCode < 300 {
			return nil
		}
		err = fmt.Errorf("post card: %s: %s", resp.Status, body)
		if !overloaded(resp) || attempt == maxAttempts {
			return err
		}
		time.Sleep(retryAfter(resp, attempt))
	}
	return nil
}
