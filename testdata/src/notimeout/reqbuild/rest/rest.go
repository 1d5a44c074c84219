// Package rest builds the requests of a hosting provider's API: the client package sends
// them. NewRequest makes them with no context; NewRequestContext with the caller's.
package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
)

type Request struct {
	Endpoint   string
	Body       any
	Parameters url.Values
	TestMode   bool
}

func (r *Request) body() (io.Reader, error) {
	if r.Body == nil {
		return nil, nil
	}
	b, err := json.Marshal(r.Body)
	if err != nil {
		return nil, err
	}
	return bytes.NewReader(b), nil
}

// HTTPRequest makes the request with no context.
func (r *Request) HTTPRequest(base, method string) (*http.Request, error) {
	body, err := r.body()
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequest(method, base+r.Endpoint, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if r.TestMode {
		if r.Parameters == nil {
			r.Parameters = url.Values{}
		}
		r.Parameters.Set("test", "1")
	}
	req.URL.RawQuery = r.Parameters.Encode()
	return req, nil
}

// HTTPRequestContext makes it with the caller's context.
func (r *Request) HTTPRequestContext(ctx context.Context, base, method string) (*http.Request, error) {
	body, err := r.body()
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, method, base+r.Endpoint, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	return req, nil
}
