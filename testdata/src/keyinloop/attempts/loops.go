package attempts

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"time"

	"github.com/google/uuid"
)

// ---- Reported ----

// The key is made after the request is built and its error checked: the err != nil test
// guards nothing about the key.
func (c *Client) CreateCharge(ctx context.Context, amount int64) (*Charge, error) {
	body, err := json.Marshal(chargeBody{Amount: amount, Currency: "eur"})
	if err != nil {
		return nil, fmt.Errorf("encode charge: %w", err)
	}
	var lastErr error
	for attempt := 0; attempt < c.maxAttempts; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+"/v1/charges", bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+c.token)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Idempotency-Key", uuid.NewString()) // related "loops.go:30: retry loop" "loops.go:37: sent as header \"Idempotency-Key\"" // want `uuid\.NewString makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated; move it out`
		req.Header.Set("User-Agent", "shop/1.0")
		resp, err := c.http.Do(req)
		if err != nil {
			lastErr = err
			log.Printf("charge: attempt %d: %v", attempt, err)
		} else {
			err = classify(resp)
			if err == nil {
				var ch Charge
				derr := json.NewDecoder(resp.Body).Decode(&ch)
				resp.Body.Close()
				if derr != nil {
					return nil, fmt.Errorf("decode charge: %w", derr)
				}
				return &ch, nil
			}
			resp.Body.Close()
			if !errors.Is(err, errRetryable) {
				return nil, err
			}
			lastErr = err
		}
		t := time.NewTimer(backoff(attempt))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
	return nil, fmt.Errorf("charge: giving up after %d attempts: %w", c.maxAttempts, lastErr)
}

// A labelled loop that goes round with continue from a switch on the status; the key comes
// from crypto/rand bytes in a local array, hex-encoded.
func (c *Client) Refund(ctx context.Context, chargeID string) error {
	var lastErr error
attempts:
	for attempt := range c.maxAttempts {
		var raw [16]byte
		if _, err := rand.Read(raw[:]); err != nil { // related "loops.go:76: retry loop" "loops.go:86: sent as header \"Idempotency-Key\"" // want `rand\.Read makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated; move it out`
			return fmt.Errorf("refund key: %w", err)
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+"/v1/refunds?charge="+chargeID, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", "Bearer "+c.token)
		req.Header.Set("Idempotency-Key", hex.EncodeToString(raw[:]))
		resp, err := c.http.Do(req)
		if err != nil {
			lastErr = err
			c.logf("refund %s: attempt %d failed: %v", chargeID, attempt, err)
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(backoff(attempt)):
			}
			continue attempts
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		switch {
		case resp.StatusCode == http.StatusTooManyRequests, resp.StatusCode >= 500:
			lastErr = fmt.Errorf("refund: status %d", resp.StatusCode)
			time.Sleep(backoff(attempt))
			continue attempts
		case resp.StatusCode >= 400:
			return fmt.Errorf("refund: status %d", resp.StatusCode)
		}
		return nil
	}
	return lastErr
}

// The key fills a buffer read with io.ReadFull from crypto/rand, base64-encoded into a JSON
// body field; the request error is checked first.
type payoutBody struct {
	Amount int64  `json:"amount"`
	Key    string `json:"idempotency_key"`
}

func (c *Client) Payout(ctx context.Context, amount int64) error {
	var lastErr error
	for attempt := 0; attempt < 4; attempt++ {
		buf := make([]byte, 18)
		if _, err := io.ReadFull(rand.Reader, buf); err != nil { // related "loops.go:122: retry loop" "loops.go:127: sent as field Key" // want `rand\.Reader makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated; move it out`
			return err
		}
		payload, err := json.Marshal(payoutBody{Amount: amount, Key: base64.RawURLEncoding.EncodeToString(buf)})
		if err != nil {
			return err
		}
		resp, err := c.http.Post(c.baseURL+"/v1/payouts", "application/json", bytes.NewReader(payload))
		if err != nil {
			lastErr = err
			time.Sleep(backoff(attempt))
			continue
		}
		resp.Body.Close()
		if err := classify(resp); err != nil {
			if errors.Is(err, errRetryable) {
				lastErr = err
				time.Sleep(backoff(attempt))
				continue
			}
			return err
		}
		return nil
	}
	return lastErr
}

// rand.Reader.Read fills the buffer too; the key travels through fmt.Sprintf("%x").
func (c *Client) Capture(ctx context.Context, chargeID string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		b := make([]byte, 16)
		if _, rerr := rand.Reader.Read(b); rerr != nil { // related "loops.go:154: retry loop" "loops.go:164: sent as header \"Idempotency-Key\"" // want `rand\.Reader makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated; move it out`
			return rerr
		}
		var req *http.Request
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+"/v1/charges/"+chargeID+"/capture", nil)
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", fmt.Sprintf("cap-%x", b))
		var resp *http.Response
		resp, err = c.http.Do(req)
		if err == nil {
			resp.Body.Close()
			if err = classify(resp); err == nil {
				return nil
			}
		}
		log.Printf("capture %s: %v", chargeID, err)
		time.Sleep(backoff(attempt))
	}
	return err
}

// A goto loop with an error check before the key.
func (c *Client) Void(ctx context.Context, chargeID string) error {
	tries := 0
again:
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+"/v1/charges/"+chargeID+"/void", nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	key := uuid.NewString() // related "loops.go:182: goto retry loop" "loops.go:189: sent as header \"Idempotency-Key\"" // want `uuid\.NewString makes a new idempotency key per attempt of the goto retry loop; move it out`
	req.Header.Set("Idempotency-Key", key)
	resp, err := c.http.Do(req)
	if err != nil {
		if tries < 3 {
			tries++
			time.Sleep(backoff(tries))
			goto again
		}
		return err
	}
	defer resp.Body.Close()
	return classify(resp)
}

// A function that calls itself again after a failure.
func (c *Client) sendInvoice(ctx context.Context, invoiceID string, left int) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+"/v1/invoices/"+invoiceID+"/send", nil)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", "inv-"+uuid.NewString()) // related "loops.go:204: retrying recursion" "loops.go:210: sent as header \"Idempotency-Key\"" // want `uuid\.NewString makes a new idempotency key per attempt of the retrying function sendInvoice; move it out`
	resp, err := c.http.Do(req)
	if err != nil {
		if left > 0 {
			log.Printf("send invoice %s: %v; retrying", invoiceID, err)
			time.Sleep(time.Second)
			return c.sendInvoice(ctx, invoiceID, left-1)
		}
		return err
	}
	defer resp.Body.Close()
	return classify(resp)
}

// ---- Not reported ----

// The key is made once before the loop; the loop checks errors, logs and waits.
func (c *Client) CreateChargeKeyed(ctx context.Context, amount int64) (*Charge, error) {
	body, err := json.Marshal(chargeBody{Amount: amount, Currency: "eur"})
	if err != nil {
		return nil, err
	}
	key := uuid.NewString()
	var lastErr error
	for attempt := 0; attempt < c.maxAttempts; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+"/v1/charges", bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+c.token)
		req.Header.Set("Idempotency-Key", key)
		req.Header.Set("X-Request-ID", uuid.NewString()) // a per-attempt id under another name
		resp, err := c.http.Do(req)
		if err != nil {
			lastErr = err
			log.Printf("charge: attempt %d: %v", attempt, err)
		} else {
			err = classify(resp)
			if err == nil {
				var ch Charge
				derr := json.NewDecoder(resp.Body).Decode(&ch)
				resp.Body.Close()
				return &ch, derr
			}
			resp.Body.Close()
			if !errors.Is(err, errRetryable) {
				return nil, err
			}
			lastErr = err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(backoff(attempt)):
		}
	}
	return nil, lastErr
}

// The key is filled in once, guarded by a test of the header it goes to; error checks around.
func (c *Client) RefundOnce(ctx context.Context, chargeID string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+"/v1/refunds?charge="+chargeID, nil)
	if err != nil {
		return err
	}
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		if req.Header.Get("Idempotency-Key") == "" {
			req.Header.Set("Idempotency-Key", uuid.NewString())
		}
		resp, err := c.http.Do(req)
		if err != nil {
			lastErr = err
			time.Sleep(backoff(attempt))
			continue
		}
		resp.Body.Close()
		if err := classify(resp); err != nil {
			lastErr = err
			time.Sleep(backoff(attempt))
			continue
		}
		return nil
	}
	return lastErr
}

// The guard is a lookup in the header map.
func (c *Client) CaptureOnce(ctx context.Context, h http.Header, chargeID string) error {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		if _, ok := h["Idempotency-Key"]; !ok {
			h["Idempotency-Key"] = []string{uuid.NewString()}
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+"/v1/charges/"+chargeID+"/capture", nil)
		if err != nil {
			return err
		}
		req.Header = h
		resp, err := c.http.Do(req)
		if err != nil {
			lastErr = err
			time.Sleep(backoff(attempt))
			continue
		}
		resp.Body.Close()
		return classify(resp)
	}
	return lastErr
}

// A key variable filled in on the first attempt.
func (c *Client) PayoutOnce(ctx context.Context, amount int64) error {
	var key string
	var lastErr error
	for attempt := 0; attempt < 4; attempt++ {
		if key == "" {
			key = uuid.NewString()
		}
		payload, err := json.Marshal(payoutBody{Amount: amount, Key: key})
		if err != nil {
			return err
		}
		resp, err := c.http.Post(c.baseURL+"/v1/payouts", "application/json", bytes.NewReader(payload))
		if err != nil {
			lastErr = err
			time.Sleep(backoff(attempt))
			continue
		}
		resp.Body.Close()
		return classify(resp)
	}
	return lastErr
}

// A fresh value per attempt sent only as a request id, with the same body shape.
func (c *Client) Ping(ctx context.Context) error {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.baseURL+"/v1/ping", nil)
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", "Bearer "+c.token)
		req.Header.Set("X-Request-ID", uuid.NewString())
		resp, err := c.http.Do(req)
		if err != nil {
			lastErr = err
			time.Sleep(backoff(attempt))
			continue
		}
		resp.Body.Close()
		return classify(resp)
	}
	return lastErr
}
