// Package attemptflaguse sends payouts through attemptflag.Do, whose loop (in another package)
// resends the request it is handed on transport errors and retryable statuses.
package attemptflaguse

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"unkeyedretry/attemptflag"
)

type Payouts struct {
	hc   *http.Client
	base string
}

func New(base string) *Payouts {
	return &Payouts{hc: &http.Client{Timeout: 15 * time.Second}, base: base}
}

type Payout struct {
	Account string `json:"account"`
	Cents   int64  `json:"cents"`
}

func (p *Payouts) newRequest(ctx context.Context, method, path string, v any) (*http.Request, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("payouts: encode: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, method, p.base+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	return req, nil
}

// Send posts a payout without a key: the helper's retries can pay twice.
func (p *Payouts) Send(ctx context.Context, po Payout) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.base+"/v2/payouts", bytes.NewReader(mustJSON(po)))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := attemptflag.Do(ctx, p.hc, req, nil) // want `attemptflag\.Do retries POST /v2/payouts without an idempotency key, so a retry can repeat its effect`
	if err != nil {
		return fmt.Errorf("payouts: send: %w", err)
	}
	if res.Response.StatusCode != http.StatusCreated {
		return fmt.Errorf("payouts: status %d", res.Response.StatusCode)
	}
	return nil
}

// SendKeyed makes the key once, before the helper's retries.
func (p *Payouts) SendKeyed(ctx context.Context, po Payout, key string) error {
	req, err := p.newRequest(ctx, http.MethodPost, "/v2/payouts", po)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", key)
	_, err = attemptflag.Do(ctx, p.hc, req, attemptflag.DefaultOptions())
	return err
}

// Balance reads; a GET is safe to repeat.
func (p *Payouts) Balance(ctx context.Context, account string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.base+"/v2/accounts/"+account+"/balance", nil)
	if err != nil {
		return nil, err
	}
	res, err := attemptflag.Do(ctx, p.hc, req, nil)
	if err != nil {
		return nil, err
	}
	return res.Body, nil
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// SendOnce posts through DoIfKeyed without a key: the helper sends it once.
func (p *Payouts) SendOnce(ctx context.Context, po Payout) error {
	req, err := p.newRequest(ctx, http.MethodPost, "/v2/payouts", po)
	if err != nil {
		return err
	}
	resp, err := attemptflag.DoIfKeyed(ctx, p.hc, req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
