package loops

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// A cloud API client whose send reports, beside its error, whether the attempt is worth
// repeating; a deferred close may replace the error, so the returns do not show the flag's
// sense: the loop does, by waiting before it goes round.
type cloudAPI struct {
	hc       *http.Client
	retries  int
	interval time.Duration
}

func retryable(resp *http.Response, err error, attempt, max int) bool {
	if attempt >= max {
		return false
	}
	if resp == nil || err != nil {
		return true
	}
	return resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests
}

func (c *cloudAPI) send(req *http.Request, out any, attempt int) (again bool, err error) {
	resp, err := c.hc.Do(req)
	defer func() {
		if resp != nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			if cerr := resp.Body.Close(); cerr != nil && err == nil {
				err = cerr
			}
		}
	}()
	if retryable(resp, err, attempt, c.retries) {
		return true, err
	}
	if err != nil {
		return false, err
	}
	if resp.StatusCode >= 400 {
		return false, errors.New(resp.Status)
	}
	if out != nil {
		if err = json.NewDecoder(resp.Body).Decode(out); errors.Is(err, io.EOF) {
			err = nil
		}
	}
	return false, err
}

// Do sends req, and again after a fixed pause while the send says so.
func (c *cloudAPI) Do(req *http.Request, out any) error {
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
		req.Body, _ = req.GetBody()
	}
	for i := 1; i <= c.retries; i++ {
		again, err := c.send(req, out, i)
		if again {
			time.Sleep(c.interval) // related "cloudpush.go:68: retry loop" // want `retry loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
			if req.GetBody != nil {
				req.Body, _ = req.GetBody()
			}
			continue
		}
		return err
	}
	return nil
}

type eventPage struct {
	Events []string `json:"events"`
	Next   string   `json:"next"`
}

// drain reads pages while the server says there are more: the flag is no verdict on a
// failure, and nothing waits. Not reported.
func (c *cloudAPI) drain(newReq func(cursor string) *http.Request) ([]string, error) {
	var all []string
	cursor := ""
	for {
		var page eventPage
		more, err := c.send(newReq(cursor), &page, 1)
		if err != nil {
			return all, err
		}
		all = append(all, page.Events...)
		if more {
			cursor = page.Next
			continue
		}
		return all, nil
	}
}

type schemaLock interface {
	AttemptLock(ctx context.Context) (bool, error)
	Unlock(ctx context.Context) (bool, error)
}

type provisioner struct {
	lock    schemaLock
	exists  func(ctx context.Context) (bool, error)
	declare func(ctx context.Context) error
}

func (p *provisioner) shouldDeclare(ctx context.Context) (declare, locked bool, err error) {
	exists, err := p.exists(ctx)
	if err != nil {
		return false, false, fmt.Errorf("checking schema: %w", err)
	}
	if exists {
		return false, false, nil
	}
	locked, err = p.lock.AttemptLock(ctx)
	if err != nil {
		return true, false, fmt.Errorf("locking: %w", err)
	}
	return true, locked, nil
}

// Provision waits, a fixed 5 s at a time, while another instance holds the lock: the flag
// is read once the call succeeded, a state it found, not a verdict on a failure. Not
// reported.
func (p *provisioner) Provision(ctx context.Context) error {
	for attempt := range 10 {
		declare, locked, err := p.shouldDeclare(ctx)
		if err != nil {
			return err
		}
		if !declare {
			return nil
		}
		if locked {
			defer p.lock.Unlock(ctx)
			return p.declare(ctx)
		}
		if attempt < 9 {
			time.Sleep(5 * time.Second)
		}
	}
	return errors.New("schema lock held too long")
}
