package loops

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"time"
)

// A cloud SDK whose request helper runs each attempt as a callback that says, beside its
// error, whether to go again: the helper's loop is the SDK's retry, the flag its decision.
type attemptFn func() (again bool, err error)

// rerun runs fn again while it asks to, waiting longer each time: the callbacks below ask again
// after a network error or a 5xx, so this is a retry, and its waits have no jitter.
func rerun(fn attemptFn, retries int, delay time.Duration) error {
	n := 0
	var err error
	var again bool
	for n <= retries {
		again, err = fn()
		if !again {
			return err
		}
		n++
		time.Sleep(delay * time.Duration(n)) // related "verdicthelper.go:25: retry loop" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
	}
	if err != nil {
		return fmt.Errorf("giving up after %d retries: %w", retries, err)
	}
	return nil
}

type infraClient struct {
	hc      *http.Client
	base    string
	retries int
}

type infraStatusError struct{ Code int }

func (e infraStatusError) Error() string { return fmt.Sprintf("infra api: status %d", e.Code) }

func (c *infraClient) call(ctx context.Context, method, path string, body []byte) ([]byte, error) {
	var out []byte
	err := rerun(func() (bool, error) {
		req, err := http.NewRequestWithContext(ctx, method, c.base+path, bytes.NewReader(body))
		if err != nil {
			return false, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json")
		resp, err := c.hc.Do(req)
		if err != nil {
			if ctx.Err() != nil {
				return false, ctx.Err()
			}
			var ne net.Error
			if errors.As(err, &ne) {
				log.Printf("infra api: %s %s: %v, retrying", method, path, err)
				return true, err
			}
			return false, err
		}
		defer resp.Body.Close()
		out, err = io.ReadAll(resp.Body)
		if err != nil {
			return false, err
		}
		switch resp.StatusCode {
		case http.StatusServiceUnavailable, http.StatusBadGateway, http.StatusInternalServerError:
			return true, infraStatusError{resp.StatusCode}
		}
		if resp.StatusCode >= 300 {
			return false, infraStatusError{resp.StatusCode}
		}
		return false, nil
	}, c.retries, time.Second)
	return out, err
}

func (c *infraClient) Volume(ctx context.Context, id string) ([]byte, error) {
	return c.call(ctx, http.MethodGet, "/volumes/"+id, nil)
}

// untilSettled runs fn until it says to stop or ctx ends. Its only callback below asks again
// while a job is pending, never after a failure: a poll for a state, not a retry.
func untilSettled(ctx context.Context, fn attemptFn, every time.Duration) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		default:
			more, err := fn()
			if !more {
				return err
			}
			time.Sleep(every)
		}
	}
}

func (c *infraClient) WaitJob(ctx context.Context, id string) error {
	return untilSettled(ctx, func() (bool, error) {
		body, err := c.call(ctx, http.MethodGet, "/jobs/"+id, nil)
		if err != nil {
			return false, err
		}
		switch {
		case bytes.Contains(body, []byte(`"state":"pending"`)):
			return true, nil
		case bytes.Contains(body, []byte(`"state":"failed"`)):
			return false, fmt.Errorf("job %s failed", id)
		}
		return false, nil
	}, 2*time.Second)
}

// pollReady and waitUntil leave on any error of the condition: they go round only once it
// answered "not yet".
func pollReady(cond attemptFn, interval time.Duration) error {
	for {
		done, err := cond()
		if err != nil {
			return err
		}
		if done {
			return nil
		}
		time.Sleep(interval)
	}
}

func waitUntil(cond attemptFn, interval time.Duration, tries int) error {
	for i := 0; i < tries; i++ {
		ok, err := cond()
		if ok || err != nil {
			return err
		}
		time.Sleep(interval)
	}
	return errors.New("condition not met in time")
}

func (c *infraClient) WaitAttached(ctx context.Context, id string) error {
	return pollReady(func() (bool, error) {
		body, err := c.Volume(ctx, id)
		if err != nil {
			return true, err
		}
		return bytes.Contains(body, []byte(`"attached":true`)), nil
	}, time.Second)
}

func (c *infraClient) WaitDetached(ctx context.Context, id string) error {
	return waitUntil(func() (bool, error) {
		body, err := c.Volume(ctx, id)
		if err != nil {
			return true, err
		}
		return bytes.Contains(body, []byte(`"attached":false`)), nil
	}, time.Second, 60)
}
