package loops

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// A wait belongs to the loop that makes it: sleeps inside a callee that does the attempt's
// work (a rate-limit wait, a readiness poll, a settle delay) are part of the attempt, not the
// wait between attempts.

type rest struct {
	hc        *http.Client
	base      string
	mu        sync.Mutex
	remaining int
	reset     time.Time
	retryWait time.Duration
}

// get sends one request, first waiting out the server's rate-limit window when it is spent.
func (r *rest) get(ctx context.Context, path string, out any) error {
	r.mu.Lock()
	if r.remaining == 0 && time.Now().Before(r.reset) {
		time.Sleep(time.Until(r.reset)) // the rate limit's wait, part of the request
	}
	r.mu.Unlock()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.base+path, nil)
	if err != nil {
		return err
	}
	resp, err := r.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	r.mu.Lock()
	r.remaining, _ = strconv.Atoi(resp.Header.Get("X-RateLimit-Remaining"))
	r.mu.Unlock()
	if resp.StatusCode >= 500 {
		return fmt.Errorf("%s: status %d", path, resp.StatusCode)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// join asks a node to join and polls until it reports ready: a fixed poll, part of joining.
func (r *rest) join(ctx context.Context, node string) error {
	var st struct{ Ready bool }
	for i := 0; i < 10; i++ {
		if err := r.get(ctx, "/v1/nodes/"+node, &st); err != nil {
			return err
		}
		if st.Ready {
			return nil
		}
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("node %s not ready", node)
}

// pause is the package's own wait between attempts: it does nothing else.
func (r *rest) pause() { time.Sleep(r.retryWait) }

// ---- Not reported: the loop's own wait is jittered; the callee's waits are the attempt's ----

func (r *rest) Fetch(ctx context.Context, path string, out any) error {
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		if err = r.get(ctx, path, out); err == nil {
			return nil
		}
		log.Printf("fetch %s: attempt %d: %v", path, attempt, err)
		time.Sleep(jitter(time.Second))
	}
	return err
}

// A background refresh scheduled with time.AfterFunc does not hold up the loop.
func (r *rest) Watch(ctx context.Context, path string, out any) error {
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		if err = r.get(ctx, path, out); err == nil {
			time.AfterFunc(time.Minute, func() { r.get(context.Background(), path, out) })
			return nil
		}
		time.Sleep(jitter(time.Second))
	}
	return err
}

// ---- Reported once, at the loop's own wait (not at join, which polls inside) ----

func (r *rest) Join(ctx context.Context, node string) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = r.join(ctx, node); err == nil {
			return nil
		}
		log.Printf("join %s: %v", node, err)
		time.Sleep(2 * time.Second) // related "owned.go:101: retry loop" // want `retry loop waits a fixed 2s between attempts, so clients that failed together retry together; add jitter`
	}
	return err
}

// ---- Reported at the package's wait helper ----

func (r *rest) Status(ctx context.Context, node string) error {
	var st struct{ Ready bool }
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = r.get(ctx, "/v1/nodes/"+node+"/status", &st); err == nil {
			return nil
		}
		r.pause() // related "owned.go:116: retry loop" // want `retry loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
	}
	return err
}

// ---- Reported once for the scope: two fixed waits, one finding ----

func (r *rest) Nodes(ctx context.Context, out any) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = r.get(ctx, "/v1/nodes", out); err == nil {
			return nil
		}
		if attempt%2 == 0 {
			time.Sleep(500 * time.Millisecond) // related "owned.go:129: retry loop" "owned.go:137: also waits without jitter" // want `retry loop waits a fixed 500ms between attempts, so clients that failed together retry together; add jitter`
			continue
		}
		time.Sleep(time.Second)
	}
	return err
}
