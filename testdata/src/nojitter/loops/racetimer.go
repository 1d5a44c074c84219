package loops

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"
)

var errRequestTimeout = errors.New("request timed out")

type objectStore struct {
	hc             *http.Client
	endpoint       string
	token          string
	connectTimeout time.Duration
	retries        int
}

func newObjectStore(endpoint, token string) *objectStore {
	return &objectStore{hc: &http.Client{Timeout: time.Minute}, endpoint: endpoint, token: token, connectTimeout: 10 * time.Second, retries: 3}
}

// sendTimed sends req in the background and races it against timer: the timer bounds the
// request, it is no wait between attempts.
func (o *objectStore) sendTimed(timer *time.Timer, req *http.Request) (*http.Response, error) {
	type result struct {
		resp *http.Response
		err  error
	}
	done := make(chan result, 1)
	go func() {
		resp, err := o.hc.Do(req)
		done <- result{resp, err}
	}()
	select {
	case r := <-done:
		return r.resp, r.err
	case <-timer.C:
		return nil, errRequestTimeout
	}
}

// bodyWatch resets the request's timer while the body is read.
type bodyWatch struct {
	r       io.Reader
	timer   *time.Timer
	timeout time.Duration
}

func (w *bodyWatch) Read(p []byte) (int, error) {
	w.timer.Reset(w.timeout)
	return w.r.Read(p)
}

// fetch goes round at once after a transport error on a GET, with a fresh timeout each time:
// the timer races the request (run in a goroutine whose answer fetch waits for, so the
// request is the attempt), it is no wait between attempts: the loop does not wait at all.
func (o *objectStore) fetch(ctx context.Context, name string, body io.Reader) (*http.Response, error) {
	retries := o.retries
	for { // related "racetimer.go:64: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		timer := time.NewTimer(o.connectTimeout)
		defer timer.Stop()
		if body != nil {
			body = &bodyWatch{r: body, timer: timer, timeout: o.connectTimeout}
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, o.endpoint+"/"+name, body)
		if err != nil {
			return nil, err
		}
		req.Header.Set("X-Auth-Token", o.token)
		req.Header.Set("Accept", "application/octet-stream")
		resp, err := o.sendTimed(timer, req)
		if err != nil {
			if retries > 0 {
				retries--
				slog.Debug("object fetch failed, trying again", "name", name, "err", err)
				continue
			}
			return nil, fmt.Errorf("fetch %s: %w", name, err)
		}
		if resp.StatusCode >= 500 {
			resp.Body.Close()
			return nil, fmt.Errorf("fetch %s: %s", name, resp.Status)
		}
		return resp, nil
	}
}

// fetchPaced waits on a timer of its own between attempts: reported.
func (o *objectStore) fetchPaced(ctx context.Context, name string) (*http.Response, error) {
	var lastErr error
	for attempt := 0; attempt <= o.retries; attempt++ {
		if attempt > 0 {
			pause := time.NewTimer(2 * time.Second) // related "racetimer.go:96: retry loop" // want `retry loop waits a fixed 2s between attempts, so clients that failed together retry together; add jitter`
			select {
			case <-ctx.Done():
				pause.Stop()
				return nil, ctx.Err()
			case <-pause.C:
			}
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, o.endpoint+"/"+name, nil)
		if err != nil {
			return nil, err
		}
		resp, err := o.hc.Do(req)
		if err == nil {
			return resp, nil
		}
		lastErr = err
	}
	return nil, lastErr
}

// refresher fetches a catalogue no more often than minAge, or at once when told to.
type refresher struct {
	store  *objectStore
	minAge time.Duration
	now    chan string // why an immediate refresh was asked for
}

// refresh waits on a timer that an immediate request may cut short: the timer is the wait
// between attempts (a long-lived channel of requests is no answer of the attempt), so after a
// failure the loop comes back on the same fixed schedule. Reported.
func (r *refresher) refresh(ctx context.Context) error {
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		timer := time.NewTimer(r.minAge) // related "racetimer.go:131: retry loop" // want `retry loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
		select {
		case <-ctx.Done():
			timer.Stop()
			return ctx.Err()
		case why := <-r.now:
			timer.Stop()
			slog.Info("catalogue refresh asked for", "why", why)
		case <-timer.C:
		}
		resp, err := r.store.fetch(ctx, "catalogue.json", nil)
		if err != nil {
			lastErr = err
			slog.Warn("catalogue refresh failed", "err", err)
			continue
		}
		return resp.Body.Close()
	}
	return lastErr
}
