// Package ctxinreq runs prepared queries against a query service. A request carries the
// operation's context in a field of its own; each attempt sends with it, so a cancelled
// operation's next attempt fails at once and the loop returns: the loop observes ctx though
// its backoff wait does not.
package ctxinreq

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"
)

type httpRequest struct {
	Method   string
	Path     string
	Body     []byte
	Context  context.Context
	Deadline time.Time
}

type Component struct {
	cli  *http.Client
	base string
}

var errStalePlan = errors.New("prepared statement is stale")

type apiError struct {
	Code int    `json:"code"`
	Msg  string `json:"msg"`
}

func (c *Component) do(req *httpRequest) (*http.Response, error) {
	hreq, err := http.NewRequestWithContext(req.Context, req.Method, c.base+req.Path, bytes.NewReader(req.Body))
	if err != nil {
		return nil, err
	}
	hreq.Header.Set("Content-Type", "application/json")
	resp, err := c.cli.Do(hreq)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusOK {
		return resp, nil
	}
	defer resp.Body.Close()
	var ae apiError
	if err := json.NewDecoder(resp.Body).Decode(&ae); err != nil {
		return nil, fmt.Errorf("query: %s", resp.Status)
	}
	if ae.Code == 4040 || ae.Code == 4050 {
		return nil, errStalePlan
	}
	return nil, fmt.Errorf("query: %d %s", ae.Code, ae.Msg)
}

// backoff waits before the next attempt, or reports that the deadline would pass.
func backoff(deadline time.Time, attempt int) bool {
	wait := time.Duration(attempt+1)*50*time.Millisecond + rand.N(50*time.Millisecond)
	select {
	case <-time.After(wait):
		return true
	case <-time.After(time.Until(deadline)):
		return false
	}
}

// Execute sends the operation's context with every attempt: not reported as ignoring it.
func (c *Component) Execute(ctx context.Context, statement string, deadline time.Time) (*http.Response, error) {
	body, err := json.Marshal(map[string]any{"statement": statement, "auto_execute": true})
	if err != nil {
		return nil, err
	}
	req := &httpRequest{Method: http.MethodPost, Path: "/query/service", Body: body, Context: ctx, Deadline: deadline}
	for attempt := 0; attempt < 8; attempt++ {
		resp, err := c.do(req)
		if err == nil {
			return resp, nil
		}
		if !errors.Is(err, errStalePlan) {
			return nil, err
		}
		if !backoff(deadline, attempt) {
			return nil, context.DeadlineExceeded
		}
	}
	return nil, errStalePlan
}

// ExecuteDetached sends every attempt with a context of its own: its retries outlive the
// caller's.
func (c *Component) ExecuteDetached(ctx context.Context, statement string, deadline time.Time) (*http.Response, error) {
	body, err := json.Marshal(map[string]any{"statement": statement})
	if err != nil {
		return nil, err
	}
	req := &httpRequest{Method: http.MethodPost, Path: "/query/service", Body: body, Context: context.Background(), Deadline: deadline}
	for attempt := 0; attempt < 8; attempt++ { // related "ctxinreq.go:103: retry loop" // want `retry loop ignores ctx: its retries outlive the caller; pass ctx on`
		resp, err := c.do(req)
		if err == nil {
			return resp, nil
		}
		if !errors.Is(err, errStalePlan) {
			return nil, err
		}
		if !backoff(deadline, attempt) {
			return nil, context.DeadlineExceeded
		}
	}
	return nil, errStalePlan
}
