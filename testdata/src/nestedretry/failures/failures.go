// Package failures: attempts multiply only for the failures both layers retry.
package failures

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/cenkalti/backoff/v4"
	"github.com/hashicorp/go-retryablehttp"
)

func jitter(d time.Duration) time.Duration { return time.Duration(rand.Int64N(int64(d))) }

var errLocked = errors.New("lock held by another process")

type exporter struct {
	rc   *retryablehttp.Client
	base string
}

// ---- Not reported: the outer loop goes round on what the client never retries ----

// WaitReady polls until the export exists: it goes round on a 404, returns on any error.
func (e *exporter) WaitReady(ctx context.Context, id string) error {
	for attempt := 0; attempt < 30; attempt++ {
		req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, e.base+"/v1/exports/"+id, nil)
		if err != nil {
			return err
		}
		resp, err := e.rc.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusNotFound {
			log.Printf("export %s not ready", id)
			time.Sleep(jitter(2 * time.Second))
			continue
		}
		if resp.StatusCode >= 300 {
			return fmt.Errorf("export %s: status %d", id, resp.StatusCode)
		}
		return nil
	}
	return fmt.Errorf("export %s: not ready", id)
}

// acquire takes a lease, retrying the request on transient failures itself.
func (e *exporter) acquire(ctx context.Context, name string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		req, rerr := retryablehttp.NewRequestWithContext(ctx, http.MethodPut, e.base+"/v1/leases/"+name, nil)
		if rerr != nil {
			return rerr
		}
		resp, derr := e.rc.HTTPClient.Do(req.Request)
		if derr != nil {
			err = derr
			time.Sleep(jitter(time.Second))
			continue
		}
		resp.Body.Close()
		switch {
		case resp.StatusCode == http.StatusConflict:
			return errLocked // held: answered at once, never retried here
		case resp.StatusCode >= 500:
			err = fmt.Errorf("status %d", resp.StatusCode)
			time.Sleep(jitter(time.Second))
			continue
		}
		return nil
	}
	return err
}

// Lock waits for the lease while another process holds it: it goes round on errLocked only.
func (e *exporter) Lock(ctx context.Context, name string) error {
	for attempt := 0; attempt < 20; attempt++ {
		err := e.acquire(ctx, name)
		if err == nil {
			return nil
		}
		if !errors.Is(err, errLocked) {
			return err
		}
		time.Sleep(jitter(500 * time.Millisecond))
	}
	return errLocked
}

var errConflict = errors.New("write conflict, try again")

// abort ends a transaction on the server, retrying transient failures itself.
func (e *exporter) abort(ctx context.Context, id string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		req, rerr := retryablehttp.NewRequestWithContext(ctx, http.MethodDelete, e.base+"/v1/txns/"+id, nil)
		if rerr != nil {
			return rerr
		}
		resp, derr := e.rc.HTTPClient.Do(req.Request)
		if derr != nil {
			err = derr
			time.Sleep(jitter(200 * time.Millisecond))
			continue
		}
		resp.Body.Close()
		if resp.StatusCode >= 500 {
			err = fmt.Errorf("abort %s: status %d", id, resp.StatusCode)
			time.Sleep(jitter(200 * time.Millisecond))
			continue
		}
		return nil
	}
	return err
}

// commit sends the transaction's writes once.
func (e *exporter) commit(ctx context.Context, id string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.base+"/v1/txns/"+id+"/commit", nil)
	if err != nil {
		return err
	}
	resp, err := e.rc.HTTPClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusConflict {
		return errConflict
	}
	if resp.StatusCode >= 300 {
		return fmt.Errorf("commit %s: status %d", id, resp.StatusCode)
	}
	return nil
}

// Transfer goes round on a write conflict of the commit. On a failure it aborts, with a call
// that retries on its own and whose error it drops: the abort is cleanup, whose failure
// neither ends nor repeats the loop, so no failure of it is retried twice.
func (e *exporter) Transfer(ctx context.Context, id string) error {
	deadline := time.Now().Add(2 * time.Minute)
	for {
		err := e.commit(ctx, id)
		if err == nil {
			return nil
		}
		_ = e.abort(ctx, id)
		if time.Now().After(deadline) || !errors.Is(err, errConflict) {
			return err
		}
		log.Printf("transaction %s: %v; again", id, err)
		time.Sleep(jitter(100 * time.Millisecond))
	}
}

// WaitValidated polls an order's validation with a backoff helper; a failure of the fetch
// (which retries transient failures itself) is marked permanent, so the helper goes round only
// on a successful answer that says "pending": it never retries what abort retries.
func (e *exporter) WaitValidated(ctx context.Context, id string) error {
	op := func() error {
		if err := e.abort(ctx, id); err != nil {
			return backoff.Permanent(fmt.Errorf("check %s: %w", id, err))
		}
		log.Printf("order %s: still pending", id)
		return errPending
	}
	return backoff.Retry(op, backoff.WithContext(backoff.NewExponentialBackOff(), ctx))
}

var errPending = errors.New("still pending")

// ---- Reported: the outer loop goes round on 5xx, which the client retries too ----

func (e *exporter) Start(ctx context.Context, id string) error {
	for attempt := 0; attempt < 4; attempt++ {
		req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPut, e.base+"/v1/exports/"+id+"/start", nil)
		if err != nil {
			return err
		}
		resp, err := e.rc.Do(req) // related "failures.go:181: outer retry loop" // want `retries up to 4 times around retryablehttp\.Client\.Do, which retries too: attempts multiply on 5xx; keep one layer`
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode >= 500 {
			time.Sleep(jitter(time.Second))
			continue
		}
		return nil
	}
	return fmt.Errorf("export %s: not started", id)
}

// APIError is the SDK's error for an answer it did not expect.
type APIError struct {
	StatusCode int
	Header     string
	Message    string
}

func (e *APIError) Error() string { return fmt.Sprintf("%d %s: %s", e.StatusCode, e.Header, e.Message) }

// exec sends one request through the self-retrying client and turns an unexpected answer into
// an *APIError.
func (e *exporter) exec(ctx context.Context, path string) error {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, e.base+path, nil)
	if err != nil {
		return err
	}
	resp, err := e.rc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return &APIError{StatusCode: resp.StatusCode, Header: resp.Header.Get("X-Error"), Message: resp.Status}
	}
	return nil
}

// ---- Not reported: the outer loop goes round only on the API's 404 "not processed yet" ----

func (e *exporter) AwaitProcessed(ctx context.Context, id string) error {
	for i := 0; ; i++ {
		err := e.exec(ctx, "/v2/requests/"+id)
		if err == nil {
			return nil
		}
		apiErr, ok := err.(*APIError)
		if !ok || apiErr.StatusCode != http.StatusNotFound || apiErr.Header != "RequestNotProcessed" || i >= 10 {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jitter(time.Second)):
		}
	}
}

// ---- Reported: the outer loop goes round on the API's 5xx, which the client retried ----

func (e *exporter) AwaitHealthy(ctx context.Context, id string) error {
	for i := 0; i < 5; i++ {
		err := e.exec(ctx, "/v2/health/"+id) // related "failures.go:250: outer retry loop" "failures.go:216: inner self-retrying client call" // want `retries up to 5 times around exporter\.exec, which retries too: attempts multiply on 5xx; keep one layer`
		if err == nil {
			return nil
		}
		var apiErr *APIError
		if !errors.As(err, &apiErr) || apiErr.StatusCode < 500 {
			return err
		}
		time.Sleep(jitter(time.Second))
	}
	return errors.New("not healthy")
}
