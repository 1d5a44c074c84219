// Package deliveryid delivers signed webhooks. Sender names each delivery once, before its
// retries, and sends that id as X-Webhook-Id (the Standard Webhooks id under an extension
// header's name): a receiver deduplicates on it, so the retries are keyed. Notifier sends only
// a trace id and a fixed credential (X-Client-Token), which no receiver deduplicates on: its
// retries repeat the POST.
package deliveryid

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"time"
)

type Sender struct {
	hc     *http.Client
	secret []byte
	logger *slog.Logger
}

func NewSender(secret []byte) *Sender {
	return &Sender{hc: &http.Client{Timeout: 10 * time.Second}, secret: secret, logger: slog.Default()}
}

func newID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	return "msg_" + hex.EncodeToString(b[:])
}

func (s *Sender) sign(id string, ts int64, body []byte) string {
	mac := hmac.New(sha256.New, s.secret)
	fmt.Fprintf(mac, "%s.%d.", id, ts)
	mac.Write(body)
	return "v1," + hex.EncodeToString(mac.Sum(nil))
}

// Send delivers body to url, retrying transport errors and 5xx with backoff.
func (s *Sender) Send(ctx context.Context, url string, body []byte) error {
	id := newID()
	ts := time.Now().Unix()
	sig := s.sign(id, ts, body)
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Webhook-Id", id)
		req.Header.Set("X-Webhook-Timestamp", strconv.FormatInt(ts, 10))
		req.Header.Set("X-Webhook-Signature", sig)
		resp, err := s.hc.Do(req)
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode < 500 {
				if resp.StatusCode >= 300 {
					return fmt.Errorf("deliveryid: rejected with %d", resp.StatusCode)
				}
				return nil
			}
			err = fmt.Errorf("deliveryid: status %d", resp.StatusCode)
		}
		lastErr = err
		s.logger.Warn("delivery failed", "id", id, "attempt", attempt, "err", err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(1<<attempt)*time.Second + time.Duration(ts%997)*time.Millisecond):
		}
	}
	return lastErr
}

type Notifier struct {
	hc    *http.Client
	token string
}

// Notify sends a trace id and its credential only: each retry is a new notification to the
// receiver.
func (n *Notifier) Notify(ctx context.Context, url string, body []byte) error {
	trace := newID()
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body)) // related "deliveryid.go:96: retry loop" "deliveryid.go:104: sent here" // want `a POST request is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Request-Id", trace)
		req.Header.Set("X-Client-Token", n.token)
		resp, err := n.hc.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode < 500 {
				return nil
			}
			err = fmt.Errorf("deliveryid: status %d", resp.StatusCode)
		}
		lastErr = err
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(1<<attempt) * time.Second):
		}
	}
	return lastErr
}
