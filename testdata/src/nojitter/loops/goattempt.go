package loops

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net/http"
	"time"
)

// An RPC client whose attempts each run in a goroutine of their own: the loop waits for the
// attempt's answer on a channel, or for the caller's context, and goes round on a failure.
// The go statement is the attempt; the loop is a retry.
type rpcNode struct {
	hc       *http.Client
	addr     string
	retries  int
	perCall  time.Duration
	interval time.Duration
}

type rpcResult struct {
	body []byte
	err  error
}

func (n *rpcNode) roundTrip(ctx context.Context, method string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, n.perCall)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, n.addr+"/rpc/"+method, nil)
	if err != nil {
		return nil, err
	}
	resp, err := n.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 500 {
		return nil, fmt.Errorf("rpc %s: status %d", method, resp.StatusCode)
	}
	return io.ReadAll(resp.Body)
}

// Call sends the attempt's outcome back as a struct and backs off, doubling, before each
// attempt after the first.
func (n *rpcNode) Call(ctx context.Context, method string) ([]byte, error) {
	var last error
	for i := 0; i <= n.retries; i++ {
		if i > 0 {
			time.Sleep(n.interval << i) // related "goattempt.go:52: retry loop" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
		}
		results := make(chan rpcResult, 1)
		go func() {
			body, err := n.roundTrip(ctx, method)
			results <- rpcResult{body, err}
		}()
		select {
		case r := <-results:
			if r.err == nil {
				return r.body, nil
			}
			log.Printf("rpc %s: attempt %d: %v", method, i+1, r.err)
			last = r.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return nil, fmt.Errorf("rpc %s: %d attempts: %w", method, n.retries+1, last)
}

// Notify sends only the error back and waits a fixed interval after each failure.
func (n *rpcNode) Notify(ctx context.Context, method string) error {
	var last error
	for i := 0; i <= n.retries; i++ {
		errc := make(chan error, 1)
		go func() {
			_, err := n.roundTrip(ctx, method)
			errc <- err
		}()
		select {
		case err := <-errc:
			if err == nil {
				return nil
			}
			last = err
		case <-ctx.Done():
			return ctx.Err()
		}
		time.Sleep(n.interval) // related "goattempt.go:78: retry loop" // want `retry loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
	}
	return last
}

// NotifyJittered is Notify with a randomised wait: not reported.
func (n *rpcNode) NotifyJittered(ctx context.Context, method string) error {
	var last error
	for i := 0; i <= n.retries; i++ {
		errc := make(chan error, 1)
		go func() {
			_, err := n.roundTrip(ctx, method)
			errc <- err
		}()
		select {
		case err := <-errc:
			if err == nil {
				return nil
			}
			last = err
		case <-ctx.Done():
			return ctx.Err()
		}
		time.Sleep(rand.N(n.interval))
	}
	return last
}

// FirstHealthy asks each node in turn, each with its own timer: a failover over the list,
// not a retry of one request.
func FirstHealthy(ctx context.Context, nodes []*rpcNode) (*rpcNode, error) {
	for _, node := range nodes {
		done := make(chan error, 1)
		go func() {
			_, err := node.roundTrip(ctx, "health")
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil {
				return node, nil
			}
		case <-time.After(2 * time.Second):
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil, errors.New("no healthy node")
}

// Broadcast starts every call first and collects the answers in a second loop: the receiving
// loop starts nothing, so it retries nothing.
func Broadcast(ctx context.Context, nodes []*rpcNode, method string) error {
	errc := make(chan error, len(nodes))
	for _, node := range nodes {
		go func() {
			_, err := node.roundTrip(ctx, method)
			errc <- err
		}()
	}
	var errs []error
	for range nodes {
		if err := <-errc; err != nil {
			errs = append(errs, err)
			time.Sleep(10 * time.Millisecond)
			continue
		}
	}
	return errors.Join(errs...)
}

// Publish runs each attempt in a goroutine too; the attempt waits on its way in (from the
// second attempt on), before it sends: that wait lies between the attempts.
func (n *rpcNode) Publish(ctx context.Context, method string) error {
	attempt := func(i int) error {
		if i > 0 {
			time.Sleep(n.interval)
		}
		_, err := n.roundTrip(ctx, method)
		return err
	}
	errc := make(chan error, n.retries+1)
	var last error
	for i := 0; i <= n.retries; i++ {
		go func(i int) { // related "goattempt.go:175: retry loop" // want `retry loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
			errc <- attempt(i)
		}(i)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-errc:
			if err == nil {
				return nil
			}
			log.Printf("publish %s: attempt %d: %v", method, i+1, err)
			last = err
		}
	}
	return last
}
