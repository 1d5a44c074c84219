// Package loops holds hand-written retry loops with production-shaped attempt bodies.
package loops

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net/http"
	"time"
)

type Client struct {
	http    *http.Client
	baseURL string
	token   string
	delay   time.Duration
}

var errTransient = errors.New("transient")

func (c *Client) newRequest(ctx context.Context, method, path string, body any) (*http.Request, error) {
	var buf bytes.Buffer
	if body != nil {
		if err := json.NewEncoder(&buf).Encode(body); err != nil {
			return nil, fmt.Errorf("encode %s: %w", path, err)
		}
	}
	req, err := http.NewRequestWithContext(ctx, method, c.baseURL+path, &buf)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Content-Type", "application/json")
	return req, nil
}

func classify(resp *http.Response) error {
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
		return fmt.Errorf("%w: status %d", errTransient, resp.StatusCode)
	}
	if resp.StatusCode >= 400 {
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	return nil
}

// send makes one attempt: build, send, classify, close.
func (c *Client) send(ctx context.Context, path string, body any) error {
	req, err := c.newRequest(ctx, http.MethodPost, path, body)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("%w: %v", errTransient, err)
	}
	defer resp.Body.Close()
	return classify(resp)
}

// ---- Reported: no jitter ----

func (c *Client) FixedSleep(ctx context.Context, order string) error {
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		if err = c.send(ctx, "/v1/orders", order); err == nil {
			return nil
		}
		if !errors.Is(err, errTransient) {
			return err
		}
		log.Printf("order %s: attempt %d: %v", order, attempt, err)
		time.Sleep(2 * time.Second) // related "loops.go:70: retry loop" // want `retry loop waits a fixed 2s between attempts, so clients that failed together retry together; add jitter`
	}
	return err
}

func (c *Client) ExponentialSelect(ctx context.Context, id string) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		req, rerr := c.newRequest(ctx, http.MethodGet, "/v1/payments/"+id, nil)
		if rerr != nil {
			return rerr
		}
		resp, derr := c.http.Do(req)
		if derr == nil {
			err = classify(resp)
			resp.Body.Close()
			if err == nil {
				return nil
			}
		} else {
			err = derr
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond << attempt): // related "loops.go:85: retry loop" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
		}
	}
	return err
}

// A webhook sender with a capped backoff (min of the doubled base and a ceiling) and a stop
// channel.
type notifier struct {
	hc                    *http.Client
	url                   string
	maxRetries            int
	baseDelay, maxBackoff time.Duration
	stop                  chan struct{}
}

func (n *notifier) deliver(payload []byte) {
	for attempt := range n.maxRetries {
		resp, err := n.hc.Post(n.url, "application/json", bytes.NewReader(payload))
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode < 300 {
				return
			}
			err = fmt.Errorf("webhook: %s", resp.Status)
		}
		log.Printf("deliver attempt %d: %v", attempt+1, err)
		if attempt < n.maxRetries-1 {
			wait := min(n.baseDelay<<attempt, n.maxBackoff)
			select {
			case <-time.After(wait): // related "loops.go:120: retry loop" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
			case <-n.stop:
				return
			}
		}
	}
	log.Printf("deliver: giving up after %d attempts", n.maxRetries)
}

func (c *Client) TimerReset(ctx context.Context, id string) error {
	t := time.NewTimer(0)
	defer t.Stop()
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		<-t.C
		if err = c.send(ctx, "/v1/refunds/"+id, nil); err == nil {
			return nil
		}
		log.Printf("refund %s: %v", id, err)
		t.Reset(c.delay) // related "loops.go:146: retry loop" // want `retry loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
	}
	return err
}

func (c *Client) NewTimer(ctx context.Context, id string) error {
	backoff := 500 * time.Millisecond
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		if err = c.send(ctx, "/v1/captures/"+id, nil); err == nil {
			return nil
		}
		timer := time.NewTimer(backoff) // related "loops.go:160: retry loop" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
		select {
		case <-ctx.Done():
			timer.Stop()
			return ctx.Err()
		case <-timer.C:
		}
		backoff *= 2
	}
	return err
}

func (c *Client) Goto(ctx context.Context, id string) error {
	tries := 0
again:
	err := c.send(ctx, "/v1/voids/"+id, nil)
	if err != nil && tries < 3 {
		tries++
		log.Printf("void %s: %v", id, err)
		time.Sleep(time.Second) // related "loops.go:178: goto retry loop" // want `goto retry loop waits a fixed 1s between attempts, so clients that failed together retry together; add jitter`
		goto again
	}
	return err
}

func (c *Client) recurse(ctx context.Context, id string, left int) error {
	err := c.send(ctx, "/v1/invoices/"+id+"/send", nil)
	if err != nil && left > 0 {
		time.Sleep(3 * time.Second) // related "loops.go:189: retrying recursion" // want `retrying function recurse waits a fixed 3s between attempts, so clients that failed together retry together; add jitter`
		return c.recurse(ctx, id, left-1)
	}
	return err
}

// A wait helper with no duration argument: the loop's wait is what the helper does.
func (c *Client) waitForRetry() { time.Sleep(c.delay) }

func (c *Client) WaitHelper(ctx context.Context, id string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = c.send(ctx, "/v1/transfers/"+id, nil); err == nil {
			return nil
		}
		c.waitForRetry() // related "loops.go:203: retry loop" // want `retry loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
	}
	return err
}

// A hot loop: nothing between attempts waits.
func (c *Client) Hot(ctx context.Context, id string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ { // related "loops.go:215: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		if err = c.send(ctx, "/v1/holds/"+id, nil); err == nil {
			return nil
		}
		log.Printf("hold %s: %v", id, err)
	}
	return err
}

// ---- Reported: no cap (and no deadline) ----

// Startup code with no context anywhere: it retries until it gets through.
func connect(hc *http.Client, url string) *http.Response {
	for { // related "loops.go:228: retry loop" // want `retry loop retries for ever \(no attempt cap, no deadline\); count the attempts and stop after a few`
		resp, err := hc.Get(url)
		if err == nil {
			return resp
		}
		log.Printf("connect %s: %v", url, err)
		time.Sleep(time.Duration(rand.Int64N(int64(time.Second))))
	}
}

func register(hc *http.Client, url string) {
	n := 0
retry: // related "loops.go:240: goto retry loop" // want `goto retry loop retries for ever \(no attempt cap, no deadline\); count the attempts and stop after a few`
	resp, err := hc.Post(url, "application/json", nil)
	if err != nil { // the goto loop counts but never stops
		n++
		log.Printf("register: attempt %d: %v", n, err)
		time.Sleep(time.Duration(rand.Int64N(int64(time.Second))))
		goto retry
	}
	resp.Body.Close()
}

// ---- Reported: no deadline, though the caller gave a context ----

func (c *Client) IgnoresContext(ctx context.Context, id string) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ { // related "loops.go:255: retry loop" // want `retry loop ignores ctx: its retries outlive the caller; pass ctx on`
		req, rerr := c.newRequest(context.Background(), http.MethodPost, "/v1/settlements/"+id, nil)
		if rerr != nil {
			return rerr
		}
		resp, derr := c.http.Do(req)
		if derr == nil {
			resp.Body.Close()
			return nil
		}
		err = derr
		time.Sleep(time.Duration(rand.Int64N(int64(2 * time.Second))))
	}
	return err
}

func (c *Client) Handler(w http.ResponseWriter, r *http.Request) {
	var err error
	for attempt := 0; attempt < 5; attempt++ { // related "loops.go:273: retry loop" // want `retry loop ignores r\.Context\(\): its retries outlive the caller; pass r\.Context\(\) on`
		if _, err = c.http.Get(c.baseURL + "/v1/health"); err == nil {
			break
		}
		time.Sleep(time.Duration(rand.Int64N(int64(time.Second))) + time.Second)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
	}
}

// ---- Not reported ----

// Full jitter, a cap, and the caller's context.
func (c *Client) Good(ctx context.Context, id string) error {
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		if err = c.send(ctx, "/v1/orders/"+id, nil); err == nil {
			return nil
		}
		d := min(5*time.Second, 100*time.Millisecond<<attempt)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(rand.Int64N(int64(d)))):
		}
	}
	return err
}

// A jitter function of the code's own.
func jitter(d time.Duration) time.Duration { return d/2 + time.Duration(rand.Int64N(int64(d/2))) }

func (c *Client) OwnJitter(ctx context.Context, id string) error {
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		if err = c.send(ctx, "/v1/orders/"+id, nil); err == nil {
			return nil
		}
		time.Sleep(jitter(time.Second << attempt))
	}
	return err
}

// No context anywhere, a few short waits: it cannot keep a caller waiting.
func warmUp(hc *http.Client, url string) error {
	var err error
	for i := 0; i < 3; i++ {
		if _, err = hc.Get(url); err == nil {
			return nil
		}
		time.Sleep(time.Duration(rand.Int64N(int64(50 * time.Millisecond))))
	}
	return err
}

// An elapsed-time bound instead of a count.
func (c *Client) Elapsed(ctx context.Context, id string) error {
	start := time.Now()
	for {
		err := c.send(ctx, "/v1/orders/"+id, nil)
		if err == nil || time.Since(start) > time.Minute {
			return err
		}
		time.Sleep(time.Duration(rand.Int64N(int64(time.Second))))
	}
}

// Unbounded, but the caller's context ends it.
func (c *Client) UntilContext(ctx context.Context, id string) error {
	for {
		err := c.send(ctx, "/v1/orders/"+id, nil)
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(rand.Int64N(int64(time.Second)))):
		}
	}
}

// Periodic work on a ticker: not a retry.
func (c *Client) Heartbeat(ctx context.Context) {
	t := time.NewTicker(10 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := c.send(ctx, "/v1/heartbeat", nil); err != nil {
				log.Printf("heartbeat: %v", err)
			}
		}
	}
}

// A worker loop that calls a retrying function once per job: iteration.
func (c *Client) Worker(ctx context.Context, jobs <-chan string) {
	for id := range jobs {
		if err := c.Good(ctx, id); err != nil {
			log.Printf("job %s: %v", id, err)
		}
	}
}

// A wait the model cannot see: an opaque delay from an interface.
type pacer interface{ Next() time.Duration }

func (c *Client) Opaque(ctx context.Context, p pacer, id string) error {
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		if err = c.send(ctx, "/v1/orders/"+id, nil); err == nil {
			return nil
		}
		time.Sleep(p.Next())
	}
	return err
}

// A short fixed pause between three attempts with the context: brief, and jitter is reported.
func (c *Client) ShortPause(ctx context.Context, id string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = c.send(context.TODO(), "/v1/locks/"+id, nil); err == nil {
			return nil
		}
		time.Sleep(10 * time.Millisecond) // related "loops.go:398: retry loop" // want `retry loop waits a fixed 10ms between attempts, so clients that failed together retry together; add jitter`
	}
	return err
}

// A poll for a remote state: it waits only after a successful call that says "not yet"; a
// failure is retried at once, a few times. The poll's interval need not be jittered.
func (c *Client) WaitActive(ctx context.Context, id string) error {
	failures := 0
	for {
		req, err := c.newRequest(ctx, http.MethodGet, "/v1/actions/"+id, nil)
		if err != nil {
			return err
		}
		resp, err := c.http.Do(req)
		if err != nil {
			if failures < 3 {
				failures++
				continue
			}
			return err
		}
		var action struct{ Status string }
		err = json.NewDecoder(resp.Body).Decode(&action)
		resp.Body.Close()
		if err != nil {
			return err
		}
		if action.Status == "completed" {
			return nil
		}
		select {
		case <-time.After(5 * time.Second):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Each attempt sends a clone of the caller's request, which carries the caller's context.
func (c *Client) Forward(req *http.Request, body []byte) (*http.Response, error) {
	var lastErr error
	for attempt := 0; attempt < 4; attempt++ {
		clone := req.Clone(req.Context())
		clone.Body = io.NopCloser(bytes.NewReader(body))
		resp, err := c.http.Do(clone)
		if err == nil {
			return resp, nil
		}
		lastErr = err
		time.Sleep(time.Duration(rand.Int64N(int64(time.Second))))
	}
	return nil, lastErr
}

// Waiting for a server this program just started on this machine.
func waitForLocalServer() {
	for {
		if resp, err := http.Get("https://localhost:8443/ping"); err == nil {
			resp.Body.Close()
			return
		}
		time.Sleep(time.Second)
	}
}
