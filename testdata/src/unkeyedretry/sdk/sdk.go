// Package sdk is a client library whose functions send POSTs without a key: a retry around
// them, here or in another package, repeats the POST.
package sdk

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

type Client struct {
	HTTP *http.Client
	Base string
}

// post sends one POST with the client's headers.
func (c *Client) post(ctx context.Context, body any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.Base+"/v1/transfers", bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 500 {
		return fmt.Errorf("transfer: status %d", resp.StatusCode)
	}
	return nil
}

// CreateTransfer sends the POST once.
func (c *Client) CreateTransfer(ctx context.Context, from, to string, amount int64) error { // want CreateTransfer:"sends POST /v1/transfers without an idempotency key"
	return c.post(ctx, map[string]any{"from": from, "to": to, "amount": amount})
}

// TransferWithRetry retries in the package.
func (c *Client) TransferWithRetry(ctx context.Context, from, to string, amount int64) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = c.CreateTransfer(ctx, from, to, amount); err == nil { // related "sdk.go:49: retry loop" "sdk.go:43: sent here by CreateTransfer" // want `POST /v1/transfers is retried with no idempotency key; CreateTransfer must send one made before the retries`
			return nil
		}
		time.Sleep(time.Second << attempt)
	}
	return err
}
