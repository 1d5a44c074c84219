// Package deadlinetimer removes a client's record from a shared registry when it shuts down.
// The removal retries until a deadline its caller sets: each retry selects between a timer
// that fires at the deadline (and gives up) and the backoff's. A retry without that timer
// goes on for ever.
package deadlinetimer

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"
)

var ErrTimeout = errors.New("deadlinetimer: timed out")

type Registry struct {
	hc   *http.Client
	base string
}

func (r *Registry) remove(ctx context.Context, location, id string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, r.base+"/records/"+location+"/clients/"+id, nil)
	if err != nil {
		return err
	}
	resp, err := r.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 && resp.StatusCode != http.StatusNotFound {
		return fmt.Errorf("remove %s: %s", id, resp.Status)
	}
	return nil
}

func backoff() time.Duration { return 10*time.Millisecond + rand.N(10*time.Millisecond) }

// Unregister removes id from every location, within 500ms.
func (r *Registry) Unregister(locations []string, id string) error {
	deadline := time.Now().Add(500 * time.Millisecond)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	for _, l := range locations {
		wg.Add(1)
		r.unregister(l, id, deadline, func(err error) {
			if err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
			}
			wg.Done()
		})
	}
	wg.Wait()
	return firstErr
}

func (r *Registry) unregister(location, id string, deadline time.Time, cb func(error)) {
	if err := r.remove(context.Background(), location, id); err != nil {
		log.Printf("unregister %s from %s: %v", id, location, err)
		select {
		case <-time.After(time.Until(deadline)):
			cb(ErrTimeout)
			return
		case <-time.After(backoff()):
		}
		r.unregister(location, id, deadline, cb)
		return
	}
	cb(nil)
}

// announce has no deadline of its own: it goes on until the registry answers.
func (r *Registry) announce(location, id string, cb func(error)) { // related "deadlinetimer.go:82: retrying recursion" // want `retrying function announce retries for ever \(no attempt cap, no deadline\)`
	if err := r.remove(context.Background(), location, id); err != nil {
		log.Printf("announce %s to %s: %v", id, location, err)
		time.Sleep(backoff())
		r.announce(location, id, cb)
		return
	}
	cb(nil)
}
