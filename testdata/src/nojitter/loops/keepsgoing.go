package loops

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"math/rand/v2"
	"net/http"
	"time"
)

// Loops that hand their context to each attempt: that bounds them only if a failure can leave
// the loop. One that goes round on every failure keeps going once the context is done, each
// attempt failing at once.

type agentInfo struct {
	ID      string `json:"id"`
	Address string `json:"address"`
}

type registrar struct {
	hc   *http.Client
	base string
	info agentInfo
}

func (r *registrar) registerOnce(ctx context.Context) error {
	body, err := json.Marshal(r.info)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, r.base+"/v1/agents/"+r.info.ID, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := r.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("register: %s", resp.Status)
	}
	return nil
}

// Register goes round on every failure, the context's own too.
func (r *registrar) Register(ctx context.Context) {
	for { // related "keepsgoing.go:52: retry loop" // want `retry loop goes round on every failure: once ctx is done it retries for ever; leave when ctx\.Err\(\) is set`
		err := r.registerOnce(ctx)
		if err == nil {
			log.Printf("registered %s", r.info.ID)
			return
		}
		log.Printf("register %s: %v", r.info.ID, err)
		time.Sleep(rand.N(2 * time.Second))
	}
}

// RegisterUntilDone leaves when the context is done.
func (r *registrar) RegisterUntilDone(ctx context.Context) error {
	for {
		err := r.registerOnce(ctx)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		log.Printf("register %s: %v", r.info.ID, err)
		time.Sleep(rand.N(2 * time.Second))
	}
}

// RegisterWaiting waits on the context between attempts.
func (r *registrar) RegisterWaiting(ctx context.Context) error {
	for {
		err := r.registerOnce(ctx)
		if err == nil {
			return nil
		}
		log.Printf("register %s: %v", r.info.ID, err)
		select {
		case <-time.After(rand.N(2 * time.Second)):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}


// RegisterCheckingFirst tests the context at the top of every round: the next round leaves
// once it is done.
func (r *registrar) RegisterCheckingFirst(ctx context.Context, verbose bool) error {
	for {
		if verbose {
			log.Printf("registering %s", r.info.ID)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := r.registerOnce(ctx); err == nil {
			return nil
		}
		time.Sleep(rand.N(2 * time.Second))
	}
}

// RegisterHot goes round at once on every failure: while the server is down it hammers it, and
// once the context is done it spins.
func (r *registrar) RegisterHot(ctx context.Context) {
	for { // related "keepsgoing.go:115: retry loop" // want `retry loop goes round without waiting on every failure: once ctx is done it spins for ever`
		if err := r.registerOnce(ctx); err == nil {
			return
		}
		log.Printf("register %s failed", r.info.ID)
	}
}
