// Package timedcancel sends HTTP requests through a client without a Timeout on purpose: its
// answers are streams of rows that outlive the request. Each request's own wait is bounded by
// a timer that cancels its context (a goroutine selecting on time.After, or time.AfterFunc);
// a context cancelled only at shutdown bounds nothing.
package timedcancel

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync/atomic"
	"time"
)

type Component struct {
	cli      *http.Client
	base     string
	shutdown chan struct{}
}

func New(base string) *Component {
	return &Component{
		cli:      &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}, // related "timedcancel.go:113: Component.Stats sends a request with its caller's context through it" // want `this http\.Client has no Timeout by default, so Component\.Stats can hang`
		base:     base,
		shutdown: make(chan struct{}),
	}
}

type Request struct {
	Path     string
	Deadline time.Time
}

type Rows struct {
	scanner  *bufio.Scanner
	timedOut *uint32
}

// Query waits at most until the request's deadline for the answer's head, then streams.
func (c *Component) Query(ctx context.Context, req *Request) (*Rows, error) {
	start := time.Now()
	ctx, cancel := context.WithCancel(ctx)
	var timedOut uint32
	done := make(chan struct{}, 1)
	defer func() { done <- struct{}{} }()
	if !req.Deadline.IsZero() {
		go func() {
			select {
			case <-time.After(req.Deadline.Sub(start)):
				atomic.StoreUint32(&timedOut, 1)
				cancel()
			case <-c.shutdown:
				cancel()
			case <-done:
			}
		}()
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/api/v1/request", nil)
	if err != nil {
		cancel()
		return nil, err
	}
	resp, err := c.cli.Do(hreq)
	if err != nil {
		cancel()
		if atomic.LoadUint32(&timedOut) == 1 {
			return nil, fmt.Errorf("query %s: %w", req.Path, context.DeadlineExceeded)
		}
		return nil, err
	}
	return &Rows{scanner: bufio.NewScanner(resp.Body), timedOut: &timedOut}, nil
}

// Ping is bounded by time.AfterFunc cancelling its context.
func (c *Component) Ping(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	t := time.AfterFunc(5*time.Second, cancel)
	defer t.Stop()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/admin/ping", nil)
	if err != nil {
		return err
	}
	resp, err := c.cli.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return errors.New(resp.Status)
	}
	return nil
}

// Stats is cancelled only at shutdown: nothing bounds a stalled server.
func (c *Component) Stats(ctx context.Context) (int, error) {
	reqCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-c.shutdown:
			cancel()
		case <-done:
			cancel()
		}
	}()
	req, err := http.NewRequestWithContext(reqCtx, http.MethodGet, c.base+"/admin/stats", nil)
	if err != nil {
		return 0, err
	}
	resp, err := c.cli.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	return resp.StatusCode, nil
}
