// Package restylocal places orders with a resty client it makes in each function and
// configures by statements of their own: a retry count set so makes the client re-send its
// POST; a count of zero does not.
package restylocal

import (
	"fmt"
	"log"
	"time"

	"github.com/go-resty/resty/v2"
)

type Order struct {
	SKU      string `json:"sku"`
	Quantity int    `json:"quantity"`
}

type Placed struct {
	ID     string `json:"id"`
	Status string `json:"status"`
}

// Place sends the order through a client that retries it three times.
func Place(base, token string, o Order) (*Placed, error) {
	client := resty.New()
	client.SetRetryCount(3)
	client.SetRetryWaitTime(500 * time.Millisecond)
	client.SetTimeout(15 * time.Second)
	var out Placed
	resp, err := client.R().SetHeader("Authorization", "Bearer "+token).SetBody(o).SetResult(&out).Post(base + "/v1/orders") // related "restylocal.go:31: self-retrying client call" // want `POST /v1/orders is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
	if err != nil {
		return nil, fmt.Errorf("place order: %w", err)
	}
	if resp.IsError() {
		log.Printf("place order: status %d", resp.StatusCode())
		return nil, fmt.Errorf("place order: status %d", resp.StatusCode())
	}
	return &out, nil
}

// PlaceOnce sends the order through a client whose retries are turned off.
func PlaceOnce(base, token string, o Order) (*Placed, error) { // want PlaceOnce:`sends POST /v1/orders without an idempotency key`
	client := resty.New()
	client.SetRetryCount(0)
	client.SetTimeout(15 * time.Second)
	var out Placed
	resp, err := client.R().SetHeader("Authorization", "Bearer "+token).SetBody(o).SetResult(&out).Post(base + "/v1/orders")
	if err != nil {
		return nil, err
	}
	if resp.IsError() {
		return nil, fmt.Errorf("place order: status %d", resp.StatusCode())
	}
	return &out, nil
}
