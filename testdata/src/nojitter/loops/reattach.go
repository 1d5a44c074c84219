package loops

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"sync"
	"time"
)

// A realtime channel that, once detached by the server, attaches again: each try first waits
// the channel's retry timeout (or leaves on any state change), then asks the server to attach.
// The loop that calls the try is bare; the try's wait, made before anything leaves, is the
// wait between attempts.

type chanState int

const (
	chanDetached chanState = iota
	chanAttached
)

type chanOptions struct {
	After        func(context.Context, time.Duration) <-chan time.Time
	RetryTimeout time.Duration
}

func afterCtx(ctx context.Context, d time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	go func() {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case now := <-t.C:
			ch <- now
		case <-ctx.Done():
		}
	}()
	return ch
}

var defaultChanOptions = chanOptions{After: afterCtx, RetryTimeout: 15 * time.Second}

type realtimeChannel struct {
	mu    sync.Mutex
	name  string
	base  string
	hc    *http.Client
	opts  *chanOptions
	state chanState
}

func newRealtimeChannel(name, base string) *realtimeChannel {
	o := defaultChanOptions
	return &realtimeChannel{name: name, base: base, hc: &http.Client{Timeout: 10 * time.Second}, opts: &o}
}

func (c *realtimeChannel) attach(ctx context.Context) error {
	b, err := json.Marshal(map[string]string{"action": "attach", "channel": c.name})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/channels/"+c.name+"/attach", bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("attach %s: %s", c.name, resp.Status)
	}
	return nil
}

func (c *realtimeChannel) setState(s chanState, err error) {
	c.mu.Lock()
	c.state = s
	c.mu.Unlock()
	if err != nil {
		log.Printf("channel %s: %v", c.name, err)
	}
}

// reattach waits the retry timeout first, then attaches; done when attached or when the
// channel's state changed meanwhile.
func (c *realtimeChannel) reattach(changes <-chan chanState) (done bool) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	select {
	case <-c.opts.After(ctx, c.opts.RetryTimeout):
	case <-changes:
		return true
	}
	err := c.attach(ctx)
	if err == nil {
		c.setState(chanAttached, nil)
		return true
	}
	c.setState(chanDetached, err)
	return false
}

// startReattach: the fixed 15 s between attempts has no jitter.
func (c *realtimeChannel) startReattach(changes <-chan chanState) {
	go func() {
		for !c.reattach(changes) { // related "reattach.go:113: retry loop" // want `retry loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
		}
	}()
}
