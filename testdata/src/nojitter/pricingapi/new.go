package pricingapi

import (
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// New returns a client for the pricing API. Its retries back off without jitter: reported
// here, where the product makes the client, not in the test that makes another.
func New(endpoint, key string) *Client {
	rc := retryablehttp.NewClient() // related "client.go:33: self-retrying client call" // want `retryablehttp\.Client backs off without jitter, so clients that failed together retry together, in waves; add jitter`
	rc.RetryWaitMin = 500 * time.Millisecond
	return &Client{hc: rc, endpoint: endpoint, key: key}
}
