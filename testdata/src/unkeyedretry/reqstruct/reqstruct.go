// Package reqstruct is a cloud API's client whose methods describe each request as a struct
// (path, method, body) and hand it to one executor, which builds the HTTP request from the
// struct's fields and sends it again on network errors and 5xx answers. A create (POST) sent
// again after a lost answer makes a second server: the method is the struct's field, set by
// each caller.
package reqstruct

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"time"
)

type Client struct {
	hc         *http.Client
	base       string
	token      string
	maxRetries int
	delay      time.Duration
}

func New(base, token string) *Client {
	return &Client{hc: &http.Client{Timeout: 30 * time.Second}, base: base, token: token, maxRetries: 5, delay: time.Second}
}

// apiRequest is one call of the API.
type apiRequest struct {
	uri    string
	method string
	body   any
}

// RequestError is an answer outside 2xx.
type RequestError struct {
	Status int
	Body   string
}

func (e RequestError) Error() string { return fmt.Sprintf("api: status %d: %s", e.Status, e.Body) }

// execute sends the request and decodes the answer into out.
func (r *apiRequest) execute(ctx context.Context, c *Client, out any) error {
	body, err := r.send(ctx, c)
	if err != nil {
		return err
	}
	if out == nil || len(body) == 0 {
		return nil
	}
	return json.Unmarshal(body, out)
}

// prepare builds the HTTP request from the struct.
func (r *apiRequest) prepare(ctx context.Context, c *Client) (*http.Request, error) {
	var buf io.Reader
	if r.body != nil {
		b, err := json.Marshal(r.body)
		if err != nil {
			return nil, err
		}
		buf = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, r.method, c.base+r.uri, buf)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Content-Type", "application/json")
	return req, nil
}

// send sends the request, again on a network error (but a timeout of a write) or a 5xx.
func (r *apiRequest) send(ctx context.Context, c *Client) ([]byte, error) {
	var body []byte
	err := retryN(c.maxRetries, c.delay, func() (bool, error) { // related "reqstruct.go:145: a POST request sent here" // want `retryN in apiRequest\.send retries a POST request without an idempotency key, so a retry can repeat its effect`
		req, err := r.prepare(ctx, c)
		if err != nil {
			return false, err
		}
		resp, err := c.hc.Do(req)
		if err != nil {
			var netErr net.Error
			if errors.As(err, &netErr) && netErr.Timeout() && r.method != http.MethodGet {
				return false, err
			}
			log.Printf("%s %s: %v, again", r.method, r.uri, err)
			return true, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			return false, err
		}
		if resp.StatusCode >= 500 {
			return true, RequestError{Status: resp.StatusCode, Body: string(b)}
		}
		if resp.StatusCode >= 300 {
			return false, RequestError{Status: resp.StatusCode, Body: string(b)}
		}
		body = b
		return false, nil
	})
	return body, err
}

// retryN calls fn until it says not to go again, at most n times, waiting longer each time.
func retryN(n int, delay time.Duration, fn func() (bool, error)) error {
	var err error
	for i := 1; i <= n; i++ {
		var again bool
		if again, err = fn(); !again {
			return err
		}
		time.Sleep(delay * time.Duration(i))
	}
	return err
}

type ServerSpec struct {
	Name  string `json:"name"`
	Cores int    `json:"cores"`
}

type CreateResponse struct {
	ObjectUUID  string `json:"object_uuid"`
	RequestUUID string `json:"request_uuid"`
}

type Server struct {
	UUID string `json:"object_uuid"`
	Name string `json:"name"`
}

// CreateServer creates a server: a POST that the executor sends again.
func (c *Client) CreateServer(ctx context.Context, spec ServerSpec) (CreateResponse, error) {
	r := apiRequest{uri: "/objects/servers", method: http.MethodPost, body: spec}
	var resp CreateResponse
	err := r.execute(ctx, c, &resp)
	return resp, err
}

// GetServer reads a server: a GET, safe to send again.
func (c *Client) GetServer(ctx context.Context, id string) (Server, error) {
	r := apiRequest{uri: "/objects/servers/" + id, method: http.MethodGet}
	var s Server
	err := r.execute(ctx, c, &s)
	return s, err
}

// DeleteServer deletes a server: a DELETE, idempotent.
func (c *Client) DeleteServer(ctx context.Context, id string) error {
	r := apiRequest{uri: "/objects/servers/" + id, method: http.MethodDelete}
	return r.execute(ctx, c, nil)
}
