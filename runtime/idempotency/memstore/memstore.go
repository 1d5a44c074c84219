// Package memstore is the in-memory idempotency.Store: the embedded default for a single process.
//
// Nothing survives a restart and nothing is shared between processes, so it protects against
// client retries but not against a crash of the process itself (use pgstore for that). Call Reap
// (or run idempotency.RunReaper) so that expired keys do not accumulate.
//
// The records are spread over shards (64 by default), each with its own lock, so that a claim
// never waits for more than one shard's share of a reap. The store is bounded (MaxRecords, about
// a million by default): a shard that is full makes room for a new key by evicting its oldest
// completed record (that key is then new again: a retry after an early eviction runs the work
// again; Evicted counts them), else its expired records; a record in progress is never evicted,
// and when a shard holds nothing else, Claim fails with ErrFull (the middleware answers 503).
package memstore

import (
	"context"
	"encoding/json"
	"errors"
	"hash/maphash"
	"sync"
	"sync/atomic"
	"time"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/idempotency/internal/pairs"
)

// Defaults of New.
const (
	DefaultMaxRecords = 1 << 20
	DefaultShards     = 64
)

// ErrFull is returned by Claim when a new key finds its shard full of records in progress, with
// nothing expired or completed to make room.
var ErrFull = errors.New("memstore: full: every record of the key's shard is in progress")

// Store is an in-memory idempotency.Store. The zero value is not usable; call New.
type Store struct {
	now      func() time.Time
	seed     maphash.Seed
	shards   []shard
	perShard int // records a shard holds at most
	token    atomic.Int64
	evicted  atomic.Int64
}

type shard struct {
	mu sync.Mutex
	// records holds the records by the hash of their key (the store's maphash, computed once per
	// call); records whose keys share a hash are chained through sameHash.
	records map[uint64]*record
	n       int // records held
	// The completed records, oldest first, for eviction.
	oldest, newest *record
	_              [64]byte // keeps shards' locks on separate cache lines
}

// get returns the record of k, whose hash is h, or nil.
func (sh *shard) get(h uint64, k recordKey) *record {
	rec := sh.records[h]
	for rec != nil && rec.key != k {
		rec = rec.sameHash
	}
	return rec
}

func (sh *shard) put(h uint64, rec *record) {
	rec.hash, rec.sameHash = h, sh.records[h]
	sh.records[h] = rec
	sh.n++
}

// remove deletes rec from the shard (and from its completed list).
func (sh *shard) remove(rec *record) {
	sh.unlink(rec)
	sh.n--
	head := sh.records[rec.hash]
	if head == rec {
		if rec.sameHash == nil {
			delete(sh.records, rec.hash)
		} else {
			sh.records[rec.hash] = rec.sameHash
		}
		return
	}
	for prev := head; prev != nil; prev = prev.sameHash {
		if prev.sameHash == rec {
			prev.sameHash = rec.sameHash
			return
		}
	}
}

type recordKey struct{ scope, key string }

// record is one key. Times are Unix nanoseconds.
type record struct {
	key         recordKey
	hash        uint64
	sameHash    *record // the next record whose key has the same hash
	fingerprint string
	token       int64
	lockedUntil int64 // in progress: the end of the lease
	expiresAt   int64
	retention   time.Duration
	completed   bool
	steps       []byte // recovery points: (name, result) pairs, appended
	status      int
	stored      []byte // completed: the header's (name, value) pairs, then the body
	headerLen   int
	prev, next  *record // the shard's completed list
}

// Option configures a Store.
type Option func(*Store)

// WithClock makes the store read the time from now instead of time.Now (for tests).
func WithClock(now func() time.Time) Option {
	return func(s *Store) { s.now = now }
}

// WithMaxRecords bounds the store to about n records (n rounded up to a multiple of the number of
// shards, each of which holds its share); n <= 0 means DefaultMaxRecords.
func WithMaxRecords(n int) Option {
	return func(s *Store) { s.perShard = n }
}

// WithShards sets the number of shards (DefaultShards when n <= 0). Keys are spread over them by
// hash; each has its own lock and its own share of MaxRecords.
func WithShards(n int) Option {
	return func(s *Store) { s.shards = make([]shard, max(n, 1)) }
}

// New returns an empty Store.
func New(opts ...Option) *Store {
	s := &Store{now: time.Now, seed: maphash.MakeSeed()}
	for _, o := range opts {
		o(s)
	}
	if s.shards == nil {
		s.shards = make([]shard, DefaultShards)
	}
	if s.perShard <= 0 {
		s.perShard = DefaultMaxRecords
	}
	s.perShard = (s.perShard + len(s.shards) - 1) / len(s.shards)
	for i := range s.shards {
		s.shards[i].records = make(map[uint64]*record)
	}
	return s
}

var _ idempotency.Store = (*Store)(nil)

// shardOf returns the shard of k and k's hash.
func (s *Store) shardOf(k recordKey) (*shard, uint64) {
	h := maphash.Comparable(s.seed, k)
	return &s.shards[h%uint64(len(s.shards))], h
}

// Local reports that the store's calls never wait on I/O (see idempotency.LocalStore).
func (s *Store) Local() {}

// expired reports whether the record's retention window has passed and no live lease holds it.
func (rec *record) expired(now int64) bool {
	return now >= rec.expiresAt && (rec.completed || now >= rec.lockedUntil)
}

// Claim implements idempotency.Store.
func (s *Store) Claim(ctx context.Context, req idempotency.ClaimRequest) (idempotency.Claim, error) {
	if err := ctx.Err(); err != nil {
		return idempotency.Claim{}, err
	}
	now := s.now().UnixNano()
	k := recordKey{req.Scope, req.Key}
	sh, h := s.shardOf(k)

	sh.mu.Lock()
	defer sh.mu.Unlock()
	rec := sh.get(h, k)
	switch {
	case rec == nil:
		if sh.n >= s.perShard && !s.makeRoom(sh, now) {
			return idempotency.Claim{}, ErrFull
		}
		rec = &record{key: k, fingerprint: req.Fingerprint}
		rec.expiresAt, rec.retention = now+int64(req.Retention), req.Retention
		sh.put(h, rec)
	case rec.expired(now):
		sh.unlink(rec)
		rec.fingerprint, rec.expiresAt, rec.retention = req.Fingerprint, now+int64(req.Retention), req.Retention
		rec.completed, rec.steps, rec.stored, rec.headerLen, rec.status = false, nil, nil, 0, 0
	case rec.fingerprint != req.Fingerprint:
		return idempotency.Claim{Status: idempotency.Mismatch}, nil
	case rec.completed:
		resp, err := rec.response()
		if err != nil {
			return idempotency.Claim{}, err
		}
		return idempotency.Claim{Status: idempotency.Completed, Response: &resp}, nil
	case now < rec.lockedUntil:
		return idempotency.Claim{Status: idempotency.InProgress, LockedUntil: time.Unix(0, rec.lockedUntil)}, nil
	}
	// New, expired, or in progress with its lease ended: take it.
	rec.token = s.token.Add(1)
	rec.lockedUntil = now + int64(req.Lease)
	steps, err := pairs.Steps(rec.steps)
	if err != nil {
		return idempotency.Claim{}, err
	}
	return idempotency.Claim{
		Status: idempotency.Claimed,
		Lease:  idempotency.Lease{Scope: req.Scope, Key: req.Key, Token: rec.token},
		Steps:  steps,
	}, nil
}

// makeRoom frees a record of a full shard, under its lock: the oldest completed one (completed
// records expire in the order they completed, so it is the first to expire), else the expired
// ones in progress. It reports whether there is room.
func (s *Store) makeRoom(sh *shard, now int64) bool {
	if old := sh.oldest; old != nil {
		if !old.expired(now) {
			s.evicted.Add(1)
		}
		sh.remove(old)
		return true
	}
	return s.reapShard(sh, now) > 0 // a scan, only when the shard holds nothing but claims
}

// response returns a copy of the stored response.
func (rec *record) response() (idempotency.Response, error) {
	resp := idempotency.Response{Status: rec.status}
	if body := rec.stored[rec.headerLen:]; len(body) > 0 {
		resp.Body = append([]byte(nil), body...)
	}
	var err error
	resp.Header, err = pairs.Header(rec.stored[:rec.headerLen])
	return resp, err
}

// withHeld calls fn with the record, under its shard's lock, if lease still holds it (in
// progress, same token); otherwise it returns idempotency.ErrFenced.
func (s *Store) withHeld(ctx context.Context, lease idempotency.Lease, fn func(sh *shard, rec *record, now int64) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	now := s.now().UnixNano()
	k := recordKey{lease.Scope, lease.Key}
	sh, h := s.shardOf(k)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	rec := sh.get(h, k)
	if rec == nil || rec.completed || rec.token != lease.Token {
		return idempotency.ErrFenced
	}
	return fn(sh, rec, now)
}

// Extend implements idempotency.Store.
func (s *Store) Extend(ctx context.Context, lease idempotency.Lease, d time.Duration) error {
	return s.withHeld(ctx, lease, func(_ *shard, rec *record, now int64) error {
		rec.lockedUntil = now + int64(d)
		return nil
	})
}

// SaveStep implements idempotency.Store.
func (s *Store) SaveStep(ctx context.Context, lease idempotency.Lease, name string, result json.RawMessage) error {
	return s.withHeld(ctx, lease, func(_ *shard, rec *record, _ int64) error {
		steps, err := pairs.Append(rec.steps, name, result)
		rec.steps = steps
		return err
	})
}

// Complete implements idempotency.Store. The record is kept for its retention window after the
// completion, when that is later than after its creation.
func (s *Store) Complete(ctx context.Context, lease idempotency.Lease, resp idempotency.Response) error {
	data, err := pairs.AppendHeader(nil, resp.Header, len(resp.Body))
	if err != nil {
		return err
	}
	headerLen := len(data)
	data = append(data, resp.Body...)
	return s.withHeld(ctx, lease, func(sh *shard, rec *record, now int64) error {
		rec.expiresAt = max(rec.expiresAt, now+int64(rec.retention))
		rec.completed = true
		rec.status, rec.stored, rec.headerLen = resp.Status, data, headerLen
		rec.steps = nil
		rec.lockedUntil = 0
		sh.link(rec)
		return nil
	})
}

// Release implements idempotency.Store.
func (s *Store) Release(ctx context.Context, lease idempotency.Lease) error {
	return s.withHeld(ctx, lease, func(sh *shard, rec *record, now int64) error {
		if len(rec.steps) == 0 {
			sh.remove(rec)
			return nil
		}
		rec.lockedUntil = now
		return nil
	})
}

// Reap implements idempotency.Store. It takes one shard's lock at a time.
func (s *Store) Reap(ctx context.Context) (int, error) {
	n := 0
	for i := range s.shards {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		sh := &s.shards[i]
		sh.mu.Lock()
		n += s.reapShard(sh, s.now().UnixNano())
		sh.mu.Unlock()
	}
	return n, nil
}

// reapShard deletes the shard's expired records, under its lock, and returns how many.
func (s *Store) reapShard(sh *shard, now int64) int {
	n := 0
	for _, head := range sh.records {
		for rec := head; rec != nil; {
			next := rec.sameHash
			if rec.expired(now) {
				sh.remove(rec)
				n++
			}
			rec = next
		}
	}
	return n
}

// Len returns the number of records held, expired ones included.
func (s *Store) Len() int {
	n := 0
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		n += sh.n
		sh.mu.Unlock()
	}
	return n
}

// Evicted returns how many completed records were evicted, before their retention window ended,
// to keep the store within MaxRecords. A growing count says that the bound is too small for the
// traffic and the retention: those keys were forgotten early.
func (s *Store) Evicted() int64 { return s.evicted.Load() }

// link appends a completed record to the shard's list.
func (sh *shard) link(rec *record) {
	rec.prev, rec.next = sh.newest, nil
	if sh.newest != nil {
		sh.newest.next = rec
	} else {
		sh.oldest = rec
	}
	sh.newest = rec
}

// unlink takes a record out of the shard's list, if it is in it.
func (sh *shard) unlink(rec *record) {
	if !rec.completed {
		return
	}
	if rec.prev != nil {
		rec.prev.next = rec.next
	} else {
		sh.oldest = rec.next
	}
	if rec.next != nil {
		rec.next.prev = rec.prev
	} else {
		sh.newest = rec.prev
	}
	rec.prev, rec.next = nil, nil
}
