package restyhelperkey

import (
	"context"
	"crypto/rand"
	"fmt"

	"github.com/go-resty/resty/v2"
)

type Message struct {
	ID      string `json:"id"`
	Subject string `json:"subject"`
	Body    string `json:"body"`
}

type DraftReq struct {
	Subject string `json:"subject"`
	Body    string `json:"body"`
}

// CreateDraft stores a new draft: the manager's client sends the POST again on a dropped
// connection, and a second draft is made.
func (c *Client) CreateDraft(ctx context.Context, req DraftReq) (Message, error) {
	var res struct {
		Message Message
	}
	if req.Body == "" {
		return Message{}, fmt.Errorf("empty draft")
	}
	if err := c.do(ctx, func(r *resty.Request) (*resty.Response, error) {
		return r.SetBody(req).SetResult(&res).Post("/mail/v4/messages")
	}); err != nil {
		return Message{}, fmt.Errorf("create draft: %w", err)
	}
	return res.Message, nil
}

// ImportMessage sends a key made once per import, so the client's retries are deduplicated.
func (c *Client) ImportMessage(ctx context.Context, msg Message) (string, error) {
	var res struct{ ID string }
	key := rand.Text()
	err := c.do(ctx, func(r *resty.Request) (*resty.Response, error) {
		return r.SetHeader("Idempotency-Key", key).SetBody(msg).SetResult(&res).Post("/mail/v4/messages/import")
	})
	if err != nil {
		return "", err
	}
	return res.ID, nil
}

// GetMessage reads a message: a retried GET repeats nothing.
func (c *Client) GetMessage(ctx context.Context, id string) (Message, error) {
	var res struct {
		Message Message
	}
	if err := c.do(ctx, func(r *resty.Request) (*resty.Response, error) {
		return r.SetResult(&res).Get("/mail/v4/messages/" + id)
	}); err != nil {
		return Message{}, err
	}
	return res.Message, nil
}

// MarkRead sets a flag: a PUT sent twice leaves what one leaves.
func (c *Client) MarkRead(ctx context.Context, ids []string) error {
	return c.do(ctx, func(r *resty.Request) (*resty.Response, error) {
		return r.SetBody(map[string][]string{"IDs": ids}).Put("/mail/v4/messages/read")
	})
}

type Label struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Color string `json:"color"`
}

// CreateLabel makes a label: the second request the client's retries can repeat.
func (c *Client) CreateLabel(ctx context.Context, name, color string) (Label, error) {
	var res struct{ Label Label }
	err := c.do(ctx, func(r *resty.Request) (*resty.Response, error) {
		return r.SetBody(Label{Name: name, Color: color}).SetResult(&res).Post("/core/v4/labels")
	})
	if err != nil {
		return Label{}, fmt.Errorf("create label %q: %w", name, err)
	}
	return res.Label, nil
}
