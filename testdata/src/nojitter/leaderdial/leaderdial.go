// Package leaderdial opens an event stream to a cluster, whose followers redirect to the
// leader.
package leaderdial

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

type Conn struct {
	body io.ReadCloser
}

type DialOptions struct {
	Client *http.Client
	Header http.Header
}

// dial asks url to switch to a stream; on a refusal it returns the response with the error.
func dial(ctx context.Context, url string, opts *DialOptions) (*Conn, *http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, nil, err
	}
	for k, vs := range opts.Header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	req.Header.Set("Connection", "Upgrade")
	resp, err := opts.Client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		return nil, resp, fmt.Errorf("unexpected status %s", resp.Status)
	}
	return &Conn{body: resp.Body}, resp, nil
}

type StreamClient struct {
	URL     string
	Client  *http.Client
	Headers http.Header
}

// Connect follows the redirects to the leader, ten at the most: each round dials where the
// previous answer pointed. Not a retry: not reported.
func (s *StreamClient) Connect(ctx context.Context) (*Conn, error) {
	var conn *Conn
	var resp *http.Response
	var err error
	for hop := 0; hop < 10; hop++ {
		conn, resp, err = dial(ctx, s.URL, &DialOptions{Client: s.Client, Header: s.Headers})
		if err == nil {
			break
		}
		if resp == nil {
			break
		} else if resp.StatusCode == http.StatusTemporaryRedirect {
			s.URL = resp.Header.Get("Location")
			continue
		} else {
			break
		}
	}
	if err != nil {
		if resp != nil && resp.StatusCode == http.StatusForbidden {
			msg, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
			resp.Body.Close()
			return nil, fmt.Errorf("stream refused: %s", msg)
		}
		return nil, fmt.Errorf("open stream to %s: %w", s.URL, err)
	}
	if conn == nil {
		return nil, errors.New("too many redirects")
	}
	return conn, nil
}

// ConnectRetrying follows redirects too, but dials the same address again at once when the
// leader is unavailable: reported.
func (s *StreamClient) ConnectRetrying(ctx context.Context) (*Conn, error) {
	var lastErr error
	for hop := 0; hop < 10; hop++ { // related "leaderdial.go:89: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		conn, resp, err := dial(ctx, s.URL, &DialOptions{Client: s.Client, Header: s.Headers})
		if err == nil {
			return conn, nil
		}
		lastErr = err
		if resp == nil {
			return nil, err
		}
		switch resp.StatusCode {
		case http.StatusTemporaryRedirect:
			s.URL = resp.Header.Get("Location")
		case http.StatusServiceUnavailable:
			resp.Body.Close()
		default:
			return nil, err
		}
	}
	return nil, fmt.Errorf("open stream to %s: %w", s.URL, lastErr)
}

// Watch reconnects after the stream ends, with a pause.
func (s *StreamClient) Watch(ctx context.Context, handle func([]byte)) error {
	for ctx.Err() == nil {
		conn, err := s.Connect(ctx)
		if err != nil {
			return err
		}
		buf, _ := io.ReadAll(conn.body)
		conn.body.Close()
		handle(buf)
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
	return ctx.Err()
}
