package loops

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// replicaSet sends writes to its current primary; a switch to another primary cancels the
// writes in flight, through the cancel functions it keeps.
type replicaSet struct {
	hc        *http.Client
	mu        sync.Mutex
	primaries []string
	current   int
	inFlight  map[int]context.CancelFunc
	nextID    int
}

func (r *replicaSet) primary() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.primaries[r.current]
}

func (r *replicaSet) track(cancel context.CancelFunc) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.nextID++
	r.inFlight[r.nextID] = cancel
	return r.nextID
}

func (r *replicaSet) untrack(id int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.inFlight, id)
}

// Switch makes another replica the primary and calls off the writes in flight.
func (r *replicaSet) Switch(to int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.current = to
	for id, cancel := range r.inFlight {
		cancel()
		delete(r.inFlight, id)
	}
}

func (r *replicaSet) put(ctx context.Context, addr, key string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, addr+"/kv/"+key, nil)
	if err != nil {
		return err
	}
	resp, err := r.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("put %s: %s", key, resp.Status)
	}
	return nil
}

// Put runs the write again only when a switch called it off while the caller still waits:
// a restart on the new primary, not a retry of a failure. Not reported.
func (r *replicaSet) Put(ctx context.Context, key string) error {
	for {
		attemptCtx, cancel := context.WithCancel(ctx)
		id := r.track(cancel)
		err := r.put(attemptCtx, r.primary(), key)
		r.untrack(id)
		cancel()
		if err == nil {
			return nil
		}
		if attemptCtx.Err() == context.Canceled && ctx.Err() == nil {
			continue // switched over while writing
		}
		return err
	}
}

// PutTimed goes round at once when its attempt timed out: the dependency was slow, and the
// loop sends again without waiting. Reported.
func (r *replicaSet) PutTimed(ctx context.Context, key string) error {
	for { // related "switchover.go:91: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		attemptCtx, cancel := context.WithTimeout(ctx, 2*time.Second)
		err := r.put(attemptCtx, r.primary(), key)
		cancel()
		if err == nil {
			return nil
		}
		if attemptCtx.Err() != nil && ctx.Err() == nil {
			continue
		}
		return err
	}
}
