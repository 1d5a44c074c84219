// Package statuspoll drives a bank's payment API, whose every call is a POST of a signed JSON
// envelope: an order status poll that also goes round on the bank's "result unclear" error
// sends its request again after it was answered (a query), while a loop that sends a payment
// again on the same error repeats a charge.
package statuspoll

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"time"
)

// APIError is the bank's error envelope.
type APIError struct {
	Code    string `json:"respCode"`
	Message string `json:"respMsg"`
}

func (e *APIError) Error() string { return e.Code + ": " + e.Message }

// Unclear reports the bank's "result not known yet" answer.
func (e *APIError) Unclear() bool { return e.Code == "SYSTERM_ERROR" }

type Client struct {
	base  string
	merID string
	http  *http.Client
}

func New(base, merID string) *Client {
	return &Client{base: base, merID: merID, http: &http.Client{Timeout: 20 * time.Second}}
}

func (c *Client) execute(ctx context.Context, path string, in, out any) error {
	body, err := json.Marshal(map[string]any{"merId": c.merID, "biz": in})
	if err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json;charset=UTF-8")
	req.Header.Set("X-Mer-Id", c.merID)
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	defer resp.Body.Close()
	var env struct {
		APIError
		Biz json.RawMessage `json:"biz"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil {
		return fmt.Errorf("decode %s: %w", path, err)
	}
	if env.Code != "SUCCESS" {
		return &APIError{Code: env.Code, Message: env.Message}
	}
	return json.Unmarshal(env.Biz, out)
}

type OrderState struct {
	OrderID    string `json:"orderId"`
	TradeState string `json:"tradeState"`
}

type Payment struct {
	OrderID string `json:"orderId"`
	Amount  int64  `json:"txnAmt"`
}

// OrderState asks for an order's trade state.
func (c *Client) OrderState(ctx context.Context, orderID string) (*OrderState, error) { // want OrderState:`sends a POST request without an idempotency key`
	var st OrderState
	if err := c.execute(ctx, "/api/v1/order/state", map[string]string{"orderId": orderID}, &st); err != nil {
		return nil, err
	}
	return &st, nil
}

// Pay charges a payment.
func (c *Client) Pay(ctx context.Context, p Payment) (*OrderState, error) { // want Pay:`sends a POST request without an idempotency key`
	var st OrderState
	if err := c.execute(ctx, "/api/v1/order/pay", p, &st); err != nil {
		return nil, err
	}
	return &st, nil
}

func final(state string) bool { return state == "S" || state == "F" || state == "C" }

// WaitFinal polls the order until it reaches a final state, asking again on an unclear answer.
func WaitFinal(ctx context.Context, c *Client, orderID string, maxTimes int, interval time.Duration) (*OrderState, error) {
	var last *OrderState
	for i := 0; i < maxTimes; i++ {
		st, err := c.OrderState(ctx, orderID)
		if err != nil {
			var apiErr *APIError
			if errors.As(err, &apiErr) && apiErr.Unclear() {
				log.Printf("order %s: result unclear, asking again", orderID)
				time.Sleep(interval)
				continue
			}
			return nil, err
		}
		last = st
		if final(st.TradeState) {
			return st, nil
		}
		time.Sleep(interval)
	}
	if last == nil {
		return nil, errors.New("order state not known")
	}
	return last, nil
}

// PayPatiently sends the payment again while the bank's answer is unclear: each time may charge.
func PayPatiently(ctx context.Context, c *Client, p Payment) (*OrderState, error) {
	for i := 0; i < 5; i++ {
		st, err := c.Pay(ctx, p) // related "statuspoll.go:126: retry loop" "statuspoll.go:90: sent here by Pay" // want `a POST request is retried with no idempotency key; Pay must send one made before the retries`
		if err != nil {
			var apiErr *APIError
			if errors.As(err, &apiErr) && apiErr.Unclear() {
				log.Printf("payment %s: result unclear, sending again", p.OrderID)
				time.Sleep(time.Duration(i+1) * time.Second)
				continue
			}
			return nil, err
		}
		return st, nil
	}
	return nil, fmt.Errorf("payment %s: result unclear after 5 tries", p.OrderID)
}
