// Package middlewares: a generated SDK's request executor. It sends through its http.Client's
// Do, wrapped by whatever middlewares the caller configured (none by default): the call of the
// wrapped handler is that client's Do. The default client has no Timeout and the request's
// context no deadline unless the caller set a request timeout.
package middlewares

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

type Middleware func(*http.Request, MiddlewareNext) (*http.Response, error)

type MiddlewareNext func(*http.Request) (*http.Response, error)

type RequestConfig struct {
	Request        *http.Request
	BaseURL        *url.URL
	HTTPClient     *http.Client
	Middlewares    []Middleware
	RequestTimeout time.Duration
}

func applyMiddleware(m Middleware, next MiddlewareNext) MiddlewareNext {
	return func(req *http.Request) (*http.Response, error) {
		return m(req, next)
	}
}

func NewRequestConfig(ctx context.Context, method, path string, body io.Reader) (*RequestConfig, error) {
	base, err := url.Parse("https://api.example.com/v1/")
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, method, base.String()+path, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "example-sdk/1.0")
	return &RequestConfig{Request: req, BaseURL: base, HTTPClient: http.DefaultClient}, nil // related "middlewares.go:54: RequestConfig.Execute sends a request with its caller's context through it" "middlewares.go:23: a client given here replaces the default" // want `http\.DefaultClient has no Timeout as the default, so RequestConfig\.Execute can hang; use a client with a Timeout`
}

// Execute sends the request through the middlewares, once.
func (cfg *RequestConfig) Execute() (*http.Response, error) {
	handler := cfg.HTTPClient.Do
	for i := len(cfg.Middlewares) - 1; i >= 0; i-- {
		handler = applyMiddleware(cfg.Middlewares[i], handler)
	}
	res, err := handler(cfg.Request)
	if err != nil {
		return nil, fmt.Errorf("executing %s %s: %w", cfg.Request.Method, cfg.Request.URL, err)
	}
	if res.StatusCode >= 400 {
		res.Body.Close()
		return nil, fmt.Errorf("status %d", res.StatusCode)
	}
	return res, nil
}

// ExecuteWithTimeout bounds each attempt with the configured request timeout.
func (cfg *RequestConfig) ExecuteWithTimeout() (*http.Response, error) {
	handler := cfg.HTTPClient.Do
	for i := len(cfg.Middlewares) - 1; i >= 0; i-- {
		handler = applyMiddleware(cfg.Middlewares[i], handler)
	}
	ctx, cancel := context.WithTimeout(cfg.Request.Context(), 30*time.Second)
	defer cancel()
	return handler(cfg.Request.WithContext(ctx))
}
