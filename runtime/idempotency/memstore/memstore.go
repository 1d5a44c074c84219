// Package memstore is the in-memory idempotency.Store: the embedded default for a single process.
//
// Records live in one map behind a mutex; nothing survives a restart and nothing is shared
// between processes, so it protects against client retries but not against a crash of the
// process itself (use pgstore for that). Call Reap (or run idempotency.RunReaper) so that expired
// keys do not accumulate.
package memstore

import (
	"context"
	"encoding/json"
	"maps"
	"sync"
	"time"

	"github.com/idemlint/idemlint/runtime/idempotency"
)

// Store is an in-memory idempotency.Store. The zero value is not usable; call New.
type Store struct {
	now func() time.Time

	mu      sync.Mutex
	records map[recordKey]*record
	token   int64
}

type recordKey struct{ scope, key string }

type record struct {
	fingerprint string
	completed   bool
	token       int64
	lockedUntil time.Time
	expiresAt   time.Time
	retention   time.Duration
	steps       map[string]json.RawMessage
	resp        idempotency.Response
}

// Option configures a Store.
type Option func(*Store)

// WithClock makes the store read the time from now instead of time.Now (for tests).
func WithClock(now func() time.Time) Option {
	return func(s *Store) { s.now = now }
}

// New returns an empty Store.
func New(opts ...Option) *Store {
	s := &Store{now: time.Now, records: make(map[recordKey]*record)}
	for _, o := range opts {
		o(s)
	}
	return s
}

var _ idempotency.Store = (*Store)(nil)

// Claim implements idempotency.Store.
func (s *Store) Claim(ctx context.Context, req idempotency.ClaimRequest) (idempotency.Claim, error) {
	if err := ctx.Err(); err != nil {
		return idempotency.Claim{}, err
	}
	now := s.now()
	k := recordKey{req.Scope, req.Key}

	s.mu.Lock()
	defer s.mu.Unlock()
	rec := s.records[k]
	switch {
	case rec == nil || rec.expired(now):
		rec = &record{fingerprint: req.Fingerprint, expiresAt: now.Add(req.Retention), retention: req.Retention}
		s.records[k] = rec
	case rec.fingerprint != req.Fingerprint:
		return idempotency.Claim{Status: idempotency.Mismatch}, nil
	case rec.completed:
		resp := rec.resp.Clone()
		return idempotency.Claim{Status: idempotency.Completed, Response: &resp}, nil
	case now.Before(rec.lockedUntil):
		return idempotency.Claim{Status: idempotency.InProgress, LockedUntil: rec.lockedUntil}, nil
	}
	// New, expired, or in progress with its lease ended: take it.
	s.token++
	rec.token = s.token
	rec.lockedUntil = now.Add(req.Lease)
	return idempotency.Claim{
		Status: idempotency.Claimed,
		Lease:  idempotency.Lease{Scope: req.Scope, Key: req.Key, Token: rec.token},
		Steps:  cloneSteps(rec.steps),
	}, nil
}

// expired reports whether the record's retention window has passed and no live lease holds it.
func (rec *record) expired(now time.Time) bool {
	return !now.Before(rec.expiresAt) && (rec.completed || !now.Before(rec.lockedUntil))
}

// withHeld calls fn with the record, under s.mu, if lease still holds it (in progress, same
// token); otherwise it returns idempotency.ErrFenced.
func (s *Store) withHeld(ctx context.Context, lease idempotency.Lease, fn func(rec *record, now time.Time)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	rec := s.records[recordKey{lease.Scope, lease.Key}]
	if rec == nil || rec.completed || rec.token != lease.Token {
		return idempotency.ErrFenced
	}
	fn(rec, now)
	return nil
}

// Extend implements idempotency.Store.
func (s *Store) Extend(ctx context.Context, lease idempotency.Lease, d time.Duration) error {
	return s.withHeld(ctx, lease, func(rec *record, now time.Time) {
		rec.lockedUntil = now.Add(d)
	})
}

// SaveStep implements idempotency.Store.
func (s *Store) SaveStep(ctx context.Context, lease idempotency.Lease, name string, result json.RawMessage) error {
	return s.withHeld(ctx, lease, func(rec *record, _ time.Time) {
		if rec.steps == nil {
			rec.steps = make(map[string]json.RawMessage)
		}
		rec.steps[name] = append(json.RawMessage(nil), result...)
	})
}

// Complete implements idempotency.Store.
func (s *Store) Complete(ctx context.Context, lease idempotency.Lease, resp idempotency.Response) error {
	return s.withHeld(ctx, lease, func(rec *record, now time.Time) {
		rec.expiresAt = later(rec.expiresAt, now.Add(rec.retention))
		rec.completed = true
		rec.resp = resp.Clone()
		rec.steps = nil
		rec.lockedUntil = time.Time{}
	})
}

// Release implements idempotency.Store.
func (s *Store) Release(ctx context.Context, lease idempotency.Lease) error {
	return s.withHeld(ctx, lease, func(rec *record, now time.Time) {
		if len(rec.steps) == 0 {
			delete(s.records, recordKey{lease.Scope, lease.Key})
			return
		}
		rec.lockedUntil = now
	})
}

// Reap implements idempotency.Store.
func (s *Store) Reap(ctx context.Context) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for k, rec := range s.records {
		if rec.expired(now) {
			delete(s.records, k)
			n++
		}
	}
	return n, nil
}

// Len returns the number of records held, expired ones included.
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.records)
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func cloneSteps(m map[string]json.RawMessage) map[string]json.RawMessage {
	if len(m) == 0 {
		return nil
	}
	c := maps.Clone(m)
	for k, v := range c {
		c[k] = append(json.RawMessage(nil), v...)
	}
	return c
}
