// Package verdictsdk: an SDK whose request method runs each attempt as a callback that makes
// and sends the request with the method it was given, and says, beside its error, whether to
// go again (after a network error or a 5xx). Every create handed to it without a key can be
// repeated: reported once, at the callback, with the create as related. Reads, and a create
// that carries a key made before the retries, are not reported.
package verdictsdk

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

type attempt func() (bool, error)

func again(fn attempt, retries int, delay time.Duration) error {
	var err error
	for i := 0; i <= retries; i++ {
		var more bool
		more, err = fn()
		if !more {
			return err
		}
		time.Sleep(delay << i)
	}
	return err
}

type Client struct {
	hc    *http.Client
	base  string
	token string
}

type Error struct {
	Status  int
	Message string `json:"message"`
}

func (e *Error) Error() string { return fmt.Sprintf("status %d: %s", e.Status, e.Message) }

func (c *Client) request(ctx context.Context, method, path string, in, out any, hdr http.Header) error {
	var payload []byte
	if in != nil {
		var err error
		if payload, err = json.Marshal(in); err != nil {
			return err
		}
	}
	return again(func() (bool, error) { // related "verdictsdk.go:108: POST /servers sent here" // want `again in Client\.request retries POST /servers without an idempotency key, so a retry can repeat its effect`
		req, err := http.NewRequestWithContext(ctx, method, c.base+path, bytes.NewReader(payload))
		if err != nil {
			return false, err
		}
		req.Header.Set("Authorization", "Bearer "+c.token)
		req.Header.Set("Content-Type", "application/json")
		for k, vs := range hdr {
			for _, v := range vs {
				req.Header.Add(k, v)
			}
		}
		resp, err := c.hc.Do(req)
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && !ne.Timeout() {
				return true, err
			}
			return false, err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return false, err
		}
		if resp.StatusCode >= 500 {
			return true, &Error{Status: resp.StatusCode}
		}
		if resp.StatusCode >= 300 {
			e := &Error{Status: resp.StatusCode}
			_ = json.Unmarshal(body, e)
			return false, e
		}
		if out != nil {
			return false, json.Unmarshal(body, out)
		}
		return false, nil
	}, 3, 500*time.Millisecond)
}

type Server struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

func (c *Client) Server(ctx context.Context, id string) (*Server, error) {
	var s Server
	return &s, c.request(ctx, http.MethodGet, "/servers/"+id, nil, &s, nil)
}

func (c *Client) CreateServer(ctx context.Context, name string) (*Server, error) {
	var s Server
	return &s, c.request(ctx, http.MethodPost, "/servers", map[string]string{"name": name}, &s, nil)
}

func (c *Client) CreateVolume(ctx context.Context, name, key string) error {
	return c.request(ctx, http.MethodPost, "/volumes", map[string]string{"name": name}, nil, http.Header{"Idempotency-Key": {key}})
}
