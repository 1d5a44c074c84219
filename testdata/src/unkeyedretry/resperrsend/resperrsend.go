// Package resperrsend's send hands back the response together with an error for a 5xx, so
// that its callers can read the status: a failed call's response is not nil, and a loop that
// goes round while it has one retries the POST.
package resperrsend

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"time"
)

type Client struct {
	base  string
	token string
	http  *http.Client
}

func New(base, token string) *Client {
	return &Client{base: base, token: token, http: &http.Client{Timeout: 10 * time.Second}}
}

type Order struct {
	SKU      string `json:"sku"`
	Quantity int    `json:"quantity"`
}

func (c *Client) send(ctx context.Context, path string, body []byte) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 500 {
		return resp, fmt.Errorf("server error: %s", resp.Status)
	}
	return resp, nil
}

// CreateOrder sends the order again while the server answers with a 5xx: each attempt may
// create it.
func (c *Client) CreateOrder(ctx context.Context, o Order) (string, error) {
	body, err := json.Marshal(o)
	if err != nil {
		return "", err
	}
	for attempt := 0; attempt < 5; attempt++ {
		resp, err := c.send(ctx, "/v1/orders", body) // related "resperrsend.go:56: retry loop" "resperrsend.go:39: sent here by send" // want `a POST request is retried with no idempotency key; send must send one made before the retries`
		if err == nil {
			defer resp.Body.Close()
			var out struct{ ID string }
			if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
				return "", err
			}
			return out.ID, nil
		}
		if resp != nil {
			msg, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			log.Printf("create order: %s: %s", err, msg)
			time.Sleep(2 * time.Second)
			continue
		}
		return "", err
	}
	return "", fmt.Errorf("create order: still failing")
}
