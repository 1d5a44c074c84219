// Package rebuildreq is an identity service's API client. Its DoRequest builds each request
// with a closure over the method it is given, sends it, and sends a fresh copy again while
// the edge answers with one of a few gateway statuses: a POST the origin may have applied is
// sent again without a key.
package rebuildreq

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"strings"
	"time"
)

var retryDelays = []time.Duration{100 * time.Millisecond, 2 * time.Second, 2 * time.Second}

var retryableStatus = map[int]bool{
	http.StatusServiceUnavailable: true,
	520:                           true,
	522:                           true,
	524:                           true,
}

type Options struct {
	Headers     map[string]string
	QueryParams map[string]string
	ResBody     any
}

type Client struct {
	base      string
	projectID string
	mgmtKey   string
	http      *http.Client
}

func New(base, projectID, mgmtKey string) *Client {
	return &Client{base: base, projectID: projectID, mgmtKey: mgmtKey, http: &http.Client{Timeout: 30 * time.Second}}
}

func (c *Client) DoGetRequest(ctx context.Context, path string, opts *Options) error {
	return c.DoRequest(ctx, http.MethodGet, path, nil, opts)
}

func (c *Client) DoPostRequest(ctx context.Context, path string, body any, opts *Options) error {
	return c.doWithBody(ctx, http.MethodPost, path, body, opts)
}

func (c *Client) DoPutRequest(ctx context.Context, path string, body any, opts *Options) error {
	return c.doWithBody(ctx, http.MethodPut, path, body, opts)
}

func (c *Client) doWithBody(ctx context.Context, method, path string, body any, opts *Options) error {
	if opts == nil {
		opts = &Options{}
	}
	if opts.Headers == nil {
		opts.Headers = map[string]string{}
	}
	if _, ok := opts.Headers["Content-Type"]; !ok {
		opts.Headers["Content-Type"] = "application/json"
	}
	var payload io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		payload = bytes.NewReader(b)
	}
	return c.DoRequest(ctx, method, path, payload, opts)
}

func (c *Client) DoRequest(ctx context.Context, method, path string, body io.Reader, opts *Options) error {
	if opts == nil {
		opts = &Options{}
	}
	url := c.base + "/" + strings.TrimLeft(path, "/")
	var bodyBytes []byte
	if body != nil {
		var err error
		if bodyBytes, err = io.ReadAll(body); err != nil {
			return err
		}
	}
	build := func() (*http.Request, error) {
		var r io.Reader
		if bodyBytes != nil {
			r = bytes.NewReader(bodyBytes)
		}
		req, err := http.NewRequestWithContext(ctx, method, url, r)
		if err != nil {
			return nil, err
		}
		q := req.URL.Query()
		for k, v := range opts.QueryParams {
			q.Set(k, v)
		}
		req.URL.RawQuery = q.Encode()
		for k, v := range opts.Headers {
			req.Header.Add(k, v)
		}
		req.Header.Set("Authorization", "Bearer "+c.projectID+":"+c.mgmtKey)
		return req, nil
	}
	req, err := build()
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	for _, delay := range retryDelays { // related "rebuildreq.go:50: a POST request sent here" // want `the retry loop in Client\.DoRequest retries a POST request without an idempotency key, so a retry can repeat its effect`
		if !retryableStatus[resp.StatusCode] {
			break
		}
		resp.Body.Close()
		log.Printf("retrying %s %s after status %d", method, url, resp.StatusCode)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay):
		}
		again, err := build()
		if err != nil {
			return err
		}
		if resp, err = c.http.Do(again); err != nil {
			return err
		}
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
		return fmt.Errorf("identity api: %s: %s", resp.Status, msg)
	}
	if opts.ResBody != nil {
		return json.NewDecoder(resp.Body).Decode(opts.ResBody)
	}
	return nil
}

type User struct {
	LoginID string `json:"loginId"`
	Email   string `json:"email"`
}

func (c *Client) CreateUser(ctx context.Context, u User) error {
	return c.DoPostRequest(ctx, "/v1/mgmt/user/create", u, nil)
}

func (c *Client) LoadUser(ctx context.Context, loginID string, out *User) error {
	return c.DoGetRequest(ctx, "/v1/mgmt/user", &Options{QueryParams: map[string]string{"loginId": loginID}, ResBody: out})
}
