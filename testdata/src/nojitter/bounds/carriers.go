package bounds

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"time"

	"nojitter/pacer"
)

// readOpts carries the request's context to the store client, as SDK query options do.
type readOpts struct {
	consistent bool
	ctx        context.Context
}

func (o *readOpts) WithContext(ctx context.Context) *readOpts {
	c := *o
	c.ctx = ctx
	return &c
}

type kvStore struct {
	hc   *http.Client
	addr string
}

func (s *kvStore) get(key string, o *readOpts) (map[string]any, error) {
	ctx := context.Background()
	if o != nil && o.ctx != nil {
		ctx = o.ctx
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.addr+"/kv/"+key, nil)
	if err != nil {
		return nil, err
	}
	resp, err := s.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("get %s: %s", key, resp.Status)
	}
	var v map[string]any
	return v, json.NewDecoder(resp.Body).Decode(&v)
}

// ---- Not reported: the context travels with a value the loop uses ----

// readKey hands its context to every read through the options it builds.
func (s *kvStore) readKey(ctx context.Context, key string) (map[string]any, error) {
	var lastErr error
	for i := 0; i < 10; i++ {
		if i > 0 {
			time.Sleep(rand.N(200 * time.Millisecond))
		}
		opts := &readOpts{consistent: true}
		v, err := s.get(key, opts.WithContext(ctx))
		if err != nil {
			slog.Warn("read failed", "key", key, "err", err)
			lastErr = err
			continue
		}
		return v, nil
	}
	return nil, lastErr
}

// awaitKey is driven by a pacer made from its context: Going stops when the context ends.
func (s *kvStore) awaitKey(ctx context.Context, key string) error {
	p := pacer.New(ctx, pacer.Config{Min: 100 * time.Millisecond, Max: time.Second})
	for p.Going() {
		if _, err := s.get(key, nil); err == nil {
			return nil
		}
		p.Pause()
	}
	return p.Err()
}

// ---- Reported: the context is at hand and nothing takes it ----

func (s *kvStore) readKeyDetached(ctx context.Context, key string) (map[string]any, error) {
	var lastErr error
	for i := 0; i < 10; i++ { // related "carriers.go:90: retry loop" // want `retry loop ignores ctx: its retries outlive the caller; pass ctx on`
		if i > 0 {
			time.Sleep(rand.N(200 * time.Millisecond))
		}
		opts := &readOpts{consistent: true}
		v, err := s.get(key, opts)
		if err != nil {
			lastErr = err
			continue
		}
		return v, nil
	}
	return nil, lastErr
}
