// Package hookdispatch sends webhooks: the idempotency key comes in as a parameter and goes
// out under the header name the project configures, so its name is not known here.
package hookdispatch

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"
)

type Dispatcher struct {
	client *http.Client
}

func New() *Dispatcher { return &Dispatcher{client: &http.Client{Timeout: 30 * time.Second}} }

// SendWebhook posts payload to endpoint, sending idempotencyKey under requestIDHeader.
func (d *Dispatcher) SendWebhook(ctx context.Context, endpoint string, payload []byte, signature string, requestIDHeader, idempotencyKey string) (int, error) { // want SendWebhook:`sends a POST request without an idempotency key`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(payload))
	if err != nil {
		return 0, err
	}
	header := http.Header{}
	header.Set("Content-Type", "application/json")
	header.Set("X-Hook-Signature", signature)
	if idempotencyKey != "" && strings.TrimSpace(requestIDHeader) != "" {
		header[requestIDHeader] = []string{idempotencyKey}
	}
	req.Header = header
	resp, err := d.client.Do(req)
	if err != nil {
		return 0, fmt.Errorf("dispatch %s: %w", endpoint, err)
	}
	defer resp.Body.Close()
	return resp.StatusCode, nil
}
