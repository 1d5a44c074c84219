// Package keyed holds retried POSTs that carry an idempotency key: none is reported.
package keyed

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	"github.com/google/uuid"
	"github.com/idemlint/idemlint/runtime/idempotency"
)

type Client struct {
	http *http.Client
	base string
}

type Order struct {
	ID    string `json:"id"`
	Total int64  `json:"total"`
}

// KeyBefore makes the key once, before the loop.
func (c *Client) KeyBefore(ctx context.Context, o Order) error {
	body, _ := json.Marshal(o)
	key := idempotency.NewKey()
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/orders", bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", key)
		resp, err := c.http.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("giving up")
}

// Derived derives the key from the order id.
func (c *Client) Derived(ctx context.Context, o Order) error {
	sum := sha256.Sum256([]byte("order:" + o.ID))
	return retrygo.Do(func() error {
		body, _ := json.Marshal(o)
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/orders", bytes.NewReader(body))
		if err != nil {
			return retrygo.Unrecoverable(err)
		}
		req.Header["Idempotency-Key"] = []string{hex.EncodeToString(sum[:])}
		resp, err := c.http.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}, retrygo.Attempts(3))
}

// KeyInLoop makes a new key on every attempt: keyinloop's finding, not this one's.
func (c *Client) KeyInLoop(ctx context.Context, o Order) error {
	body, _ := json.Marshal(o)
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/orders", bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", uuid.NewString())
		if resp, err := c.http.Do(req); err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("giving up")
}

type createBody struct {
	Order          Order  `json:"order"`
	IdempotencyKey string `json:"idempotency_key"`
}

// BodyField sends the key in the JSON body.
func (c *Client) BodyField(ctx context.Context, o Order, key string) error {
	body, _ := json.Marshal(createBody{Order: o, IdempotencyKey: key})
	for attempt := 0; attempt < 3; attempt++ {
		resp, err := c.http.Post(c.base+"/v1/orders", "application/json", bytes.NewReader(body))
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("giving up")
}

// HeaderLiteral sets the whole header, key included.
func (c *Client) HeaderLiteral(ctx context.Context, o Order, key string) error {
	body, _ := json.Marshal(o)
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/orders", bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header = http.Header{"Content-Type": {"application/json"}, "Idempotency-Key": {key}}
		if resp, err := c.http.Do(req); err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("giving up")
}

// newKeyedRequest builds the request with the caller's key.
func (c *Client) newKeyedRequest(ctx context.Context, path, key string, v any) (*http.Request, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Idempotency-Key", key)
	return req, nil
}

// Helper builds the request in a function that sets the key.
func (c *Client) Helper(ctx context.Context, o Order) error {
	key := "order-" + o.ID
	for attempt := 0; attempt < 3; attempt++ {
		req, err := c.newKeyedRequest(ctx, "/v1/orders", key, o)
		if err != nil {
			return err
		}
		if resp, err := c.http.Do(req); err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("giving up")
}

// setKey keys a request it is given.
func setKey(req *http.Request, key string) { req.Header.Set("X-Idempotency-Key", key) }

// Setter keys the request through a function of the package.
func (c *Client) Setter(ctx context.Context, o Order) error {
	body, _ := json.Marshal(o)
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/orders", bytes.NewReader(body))
		if err != nil {
			return err
		}
		setKey(req, o.ID)
		if resp, err := c.http.Do(req); err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("giving up")
}

// mintRequest makes a new key on every call: called in a loop, it is keyinloop's finding.
func (c *Client) mintRequest(ctx context.Context, body []byte) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/orders", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Idempotency-Key", uuid.NewString())
	return req, nil
}

func (c *Client) Mint(ctx context.Context, body []byte) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, err := c.mintRequest(ctx, body)
		if err != nil {
			return err
		}
		if resp, err := c.http.Do(req); err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("giving up")
}

// Closure keys the request outside the callback that sends it.
func (c *Client) Closure(ctx context.Context, body []byte, key string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/orders", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", key)
	return retrygo.Do(func() error {
		resp, err := c.http.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}

// session sends requests under the key of the operation it was opened for.
type session struct {
	http *http.Client
	key  string
}

func (s *session) send(req *http.Request) (*http.Response, error) {
	req.Header.Set("Idempotency-Key", s.key)
	return s.http.Do(req)
}

// Session keys the request in the helper that sends it.
func (c *Client) Session(ctx context.Context, s *session, body []byte) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/orders", bytes.NewReader(body))
		if err != nil {
			return err
		}
		if resp, err := s.send(req); err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("giving up")
}

// Hooked hands the request to a hook the caller configured, which may key it: not judged.
func (c *Client) Hooked(ctx context.Context, body []byte, modify func(*http.Request) error) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/orders", bytes.NewReader(body))
		if err != nil {
			return err
		}
		if modify != nil {
			if err := modify(req); err != nil {
				return err
			}
		}
		if resp, err := c.http.Do(req); err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("giving up")
}
