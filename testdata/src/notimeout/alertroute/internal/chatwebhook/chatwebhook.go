// Package chatwebhook posts alerts to a chat webhook. Its client has no Timeout and each
// request carries the caller's context: the package is internal, so every caller is in this
// module and is judged where it hands a context in (see alertroute), not here.
package chatwebhook

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

type Client struct {
	hc         *http.Client
	webhookURL string
}

func New(webhookURL string) *Client {
	return &Client{hc: &http.Client{}, webhookURL: webhookURL}
}

type message struct {
	Text string `json:"text"`
}

// Notify posts one message.
func (c *Client) Notify(ctx context.Context, text string) error {
	body, err := json.Marshal(message{Text: text})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.webhookURL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
		return fmt.Errorf("chat webhook: status %d: %s", resp.StatusCode, b)
	}
	return nil
}
