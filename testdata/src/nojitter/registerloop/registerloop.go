// Package registerloop registers a service instance with a remote registry. The retry
// library paces the registration calls; a loop written around the library's call goes round
// only when the library gives up, and then the library's own waits stand between the calls.
package registerloop

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"time"

	"github.com/cenkalti/backoff/v4"
)

type Instance struct {
	Service string            `json:"service"`
	Address string            `json:"address"`
	Meta    map[string]string `json:"meta,omitempty"`
}

type Registrar struct {
	base   string
	token  string
	client *http.Client
}

func New(base, token string) *Registrar {
	return &Registrar{base: base, token: token, client: &http.Client{Timeout: 10 * time.Second}}
}

func (r *Registrar) register(ctx context.Context, in Instance) error {
	body, err := json.Marshal(in)
	if err != nil {
		return backoff.Permanent(err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, r.base+"/v1/instances/"+in.Service, bytes.NewReader(body))
	if err != nil {
		return backoff.Permanent(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+r.token)
	resp, err := r.client.Do(req)
	if err != nil {
		return fmt.Errorf("register %s: %w", in.Service, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 500 {
		return fmt.Errorf("register %s: registry answered %s", in.Service, resp.Status)
	}
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusCreated {
		return backoff.Permanent(fmt.Errorf("register %s: %s", in.Service, resp.Status))
	}
	return nil
}

// ---- The library never gives up: only its own missing cap is reported ----

// keepTrying runs op until it succeeds. The loop around backoff.Retry goes round only on
// what the library hands back at once (a permanent error): it neither hammers the registry
// (the library waits between its calls) nor multiplies them.
func keepTrying(op func() error) {
	b := &backoff.ExponentialBackOff{ // related "registerloop.go:73: retry callback" // want `backoff\.Retry retries for ever \(no attempt cap, no deadline\)`
		InitialInterval:     time.Second,
		RandomizationFactor: 0.5,
		Multiplier:          2,
		MaxInterval:         time.Minute,
	}
	for {
		log.Printf("starting backoff at %v", b.InitialInterval)
		err := backoff.Retry(op, b)
		if err == nil {
			return
		}
		log.Printf("backoff gave up: %v", err)
	}
}

func (r *Registrar) Register(in Instance) {
	keepTrying(func() error { return r.register(context.Background(), in) })
}

// ---- Reported: the library ends with ctx, and then the loop around it spins ----

func (r *Registrar) Keep(ctx context.Context, in Instance) {
	b := backoff.NewExponentialBackOff()
	for { // related "registerloop.go:89: retry loop" // want `retry loop goes round without waiting on every failure: once ctx is done it spins for ever`
		err := backoff.Retry(func() error { return r.register(ctx, in) }, backoff.WithContext(b, ctx))
		if err == nil {
			return
		}
		log.Printf("register %s: %v", in.Service, err)
	}
}

// ---- The library gives up after a few tries: the layers multiply (nestedretry's), yet
// the library's waits pace every call, so nothing here hammers the registry ----

func (r *Registrar) RegisterAll(ctx context.Context, ins []Instance) error {
	for _, in := range ins {
		var err error
		for round := 0; round < 3; round++ {
			b := backoff.WithContext(backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 4), ctx)
			if err = backoff.Retry(func() error { return r.register(ctx, in) }, b); err == nil {
				break
			}
			log.Printf("register %s (round %d): %v", in.Service, round, err)
		}
		if err != nil {
			return fmt.Errorf("register %s: %w", in.Service, err)
		}
	}
	return nil
}

// ---- Reported: a loop with no wait of its own around a call that does not retry ----

func (r *Registrar) RegisterOnce(ctx context.Context, in Instance) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ { // related "registerloop.go:122: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		if err = r.register(ctx, in); err == nil {
			return nil
		}
		log.Printf("register %s (attempt %d): %v", in.Service, attempt, err)
	}
	return err
}
