// Package shadow retries a POST in a module without idemlint's runtime: the fix makes its key
// with crypto/rand.Text, imported as crand, which clashes neither with the file's math/rand/v2
// nor with the rand that another fix (nojitter's) may import into the same file.
package shadow

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"math/rand/v2"
	"net/http"
	"time"
)

type Orders struct {
	http    *http.Client
	baseURL string
}

type order struct {
	SKU      string `json:"sku"`
	Quantity int    `json:"quantity"`
}

// Place retries the POST that creates an order; rand is math/rand/v2 in this file.
func (o *Orders) Place(ctx context.Context, sku string, qty int) error {
	body, err := json.Marshal(order{SKU: sku, Quantity: qty})
	if err != nil {
		return err
	}
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.baseURL+"/v1/orders", bytes.NewReader(body)) // related "shadow.go:33: retry loop" "shadow.go:39: sent here" // want `POST /v1/orders is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := o.http.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode < 300 {
				return nil
			}
			err = fmt.Errorf("place %s: status %d", sku, resp.StatusCode)
		}
		log.Printf("place %s: attempt %d: %v", sku, attempt, err)
		time.Sleep(rand.N(time.Second))
	}
	return fmt.Errorf("place %s: gave up", sku)
}
