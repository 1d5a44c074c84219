// Package memstore is the in-memory idempotency.Store: the embedded default for a single process.
//
// Nothing survives a restart and nothing is shared between processes, so it protects against
// client retries but not against a crash of the process itself (use pgstore for that). Call Reap
// (or run idempotency.RunReaper) so that expired keys do not accumulate.
//
// The records are spread over shards (64 by default), each with its own lock, so that a claim
// never waits for more than one shard's share of a reap. The store is bounded (MaxRecords, about
// a million by default, and MaxBytes, 1 GiB of keys, responses and recovery points; a record
// larger than a shard's share of MaxBytes is refused with ErrTooLarge): a shard that is full
// makes room by evicting its oldest
// completed record (that key is then new again: a retry after an early eviction runs the work
// again; Evicted counts them), else its expired records; a record in progress is never evicted,
// and when a shard holds nothing else, Claim fails with ErrFull (the middleware answers 503).
//
// A shard's records live in arrays of slots with no pointers but two strings each (scope, key and
// fingerprint; the stored response), so that the garbage collector scans arrays instead of a
// graph of small objects; a reap that leaves a shard's slots mostly free compacts them.
package memstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/idempotency/internal/pairs"
)

// Defaults of New.
const (
	DefaultMaxRecords = 1 << 20
	DefaultMaxBytes   = 1 << 30
	DefaultShards     = 64
)

// ErrFull is returned by Claim (and by SaveStep and Complete, when a shard is over its bytes)
// when the key's shard is full of records in progress, with nothing expired or completed to
// make room.
var ErrFull = errors.New("memstore: full: every record of the key's shard is in progress")

// ErrTooLarge is returned by Complete and SaveStep for a record larger than a shard's share of
// MaxBytes, which could never be stored. It matches idempotency.ErrResponseTooLarge.
var ErrTooLarge = fmt.Errorf("memstore: the record is larger than a shard's share of MaxBytes: %w", idempotency.ErrResponseTooLarge)

// Store is an in-memory idempotency.Store. The zero value is not usable; call New.
type Store struct {
	now      func() time.Time
	seed     maphash.Seed
	shards   []shard
	perShard int   // records a shard holds at most
	maxBytes int64 // bytes a shard's records hold at most (see record.bytes)
	token    atomic.Int64
	evicted  atomic.Int64
}

type shard struct {
	mu sync.Mutex
	// index maps the hash of a key (the store's maphash, computed once per call) to the slot of
	// its record; records whose keys share a hash are chained through sameHash.
	index map[uint64]int32
	// records holds the records by slot; free slots are chained through next. A record holds no
	// pointers but two strings (and its recovery points while in progress), so that the garbage
	// collector scans arrays of them rather than a graph of small objects.
	records slots
	free    int32 // the first free slot, or none
	n       int   // records held
	bytes   int64 // what the records hold (see record.bytes)
	// The completed records, oldest first, for eviction.
	oldest, newest int32
	_              [64]byte // keeps shards' locks on separate cache lines
}

// none is the slot of no record.
const none = -1

// get returns the slot of the record of (scope, key), whose hash is h, or none.
func (sh *shard) get(h uint64, scope, key string) int32 {
	i, ok := sh.index[h]
	if !ok {
		return none
	}
	for i != none && (sh.records.at(i).scope() != scope || sh.records.at(i).key() != key) {
		i = sh.records.at(i).sameHash
	}
	return i
}

// add takes a free slot for a new record of hash h, and returns it.
func (sh *shard) add(h uint64) int32 {
	i := sh.free
	if i == none {
		i = sh.records.add()
	} else {
		sh.free = sh.records.at(i).next
	}
	head, ok := sh.index[h]
	if !ok {
		head = none
	}
	*sh.records.at(i) = record{used: true, hash: h, sameHash: head, prev: none, next: none}
	sh.index[h] = i
	sh.n++
	return i
}

// remove deletes the record of slot i from the shard (and from its completed list).
func (sh *shard) remove(i int32) {
	sh.unlink(i)
	rec := sh.records.at(i)
	if head := sh.index[rec.hash]; head == i {
		if rec.sameHash == none {
			delete(sh.index, rec.hash)
		} else {
			sh.index[rec.hash] = rec.sameHash
		}
	} else {
		for prev := head; prev != none; prev = sh.records.at(prev).sameHash {
			if sh.records.at(prev).sameHash == i {
				sh.records.at(prev).sameHash = rec.sameHash
				break
			}
		}
	}
	sh.bytes -= rec.bytes()
	*rec = record{next: sh.free} // drops its strings and steps
	sh.free = i
	sh.n--
}

// record is one key. Times are Unix nanoseconds; slots are indexes in the shard's records.
type record struct {
	hash        uint64
	token       int64
	lockedUntil int64 // in progress: the end of the lease
	expiresAt   int64
	retention   time.Duration
	status      int
	// ident is the scope, the key and the fingerprint, one after the other; stored, once
	// completed, the response's header (name, value) pairs and then its body, so that a replay's
	// header values are substrings of it.
	ident, stored string
	steps         []byte // recovery points: (name, result) pairs, appended

	scopeLen, keyLen, headerLen int32 // of ident's and stored's parts
	sameHash                    int32 // the next record whose key has the same hash
	prev, next                  int32 // the shard's completed list; next chains free slots
	used                        bool  // the slot holds a record (not free)
	completed                   bool
}

// bytes is what the record holds that MaxBytes bounds: its scope, key and fingerprint, its stored
// response and its recovery points.
func (rec *record) bytes() int64 { return int64(len(rec.ident) + len(rec.stored) + len(rec.steps)) }

// resize accounts for the record of slot i now holding size bytes instead of was, evicting the
// shard's oldest completed records to stay within maxBytes. It reports ErrTooLarge for a record
// that would not fit in an empty shard, and ErrFull when nothing can be evicted.
func (s *Store) resize(sh *shard, was, size, now int64) error {
	if size > s.maxBytes {
		return ErrTooLarge
	}
	for sh.bytes-was+size > s.maxBytes {
		if sh.oldest == none {
			return ErrFull
		}
		s.evict(sh, sh.oldest, now)
	}
	sh.bytes += size - was
	return nil
}

// evict removes the completed record of slot i to make room, counting it when it was still live.
func (s *Store) evict(sh *shard, i int32, now int64) {
	if !sh.records.at(i).expired(now) {
		s.evicted.Add(1)
	}
	sh.remove(i)
}

func (rec *record) scope() string       { return rec.ident[:rec.scopeLen] }
func (rec *record) key() string         { return rec.ident[rec.scopeLen : rec.scopeLen+rec.keyLen] }
func (rec *record) fingerprint() string { return rec.ident[rec.scopeLen+rec.keyLen:] }

// errTooLong is returned for a scope and key, or a header, of more than 2 GiB.
var errTooLong = errors.New("memstore: a scope and key, or a header, longer than 2 GiB")

// identify sets the record's scope, key and fingerprint (the scope and the key together at most
// math.MaxInt32 bytes: see fits), and drops its response.
func (rec *record) identify(scope, key, fingerprint string) {
	rec.ident = scope + key + fingerprint
	rec.scopeLen, rec.keyLen = int32(len(scope)), int32(len(key))
	rec.stored, rec.headerLen = "", 0
}

// fits reports whether the lengths of a claim's scope and key fit a record's int32 fields.
func fits(req idempotency.ClaimRequest) bool {
	return len(req.Scope) <= math.MaxInt32-len(req.Key)
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

// WithMaxBytes bounds what the store holds to about n bytes (DefaultMaxBytes, 1 GiB, when
// n <= 0): the scopes, keys and fingerprints, stored responses (header and body) and recovery
// points of its records, not its own overhead (about 400 bytes a record). Each shard holds its
// share; a record larger than that share cannot be stored (ErrTooLarge, which matches
// idempotency.ErrResponseTooLarge), and a shard over it evicts its oldest completed records.
func WithMaxBytes(n int64) Option {
	return func(s *Store) { s.maxBytes = n }
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
	per := s.perShard / len(s.shards) // rounded up, without overflowing at WithMaxRecords(math.MaxInt)
	if s.perShard%len(s.shards) != 0 {
		per++
	}
	s.perShard = min(per, math.MaxInt32) // slots are int32
	if s.maxBytes <= 0 {
		s.maxBytes = DefaultMaxBytes
	}
	s.maxBytes = (s.maxBytes + int64(len(s.shards)) - 1) / int64(len(s.shards))
	for i := range s.shards {
		sh := &s.shards[i]
		sh.index = make(map[uint64]int32)
		sh.free, sh.oldest, sh.newest = none, none, none
	}
	return s
}

var _ idempotency.Store = (*Store)(nil)

// recordKey is what a key's hash is computed from.
type recordKey struct{ scope, key string }

// shardOf returns the shard of (scope, key) and its hash.
func (s *Store) shardOf(scope, key string) (*shard, uint64) {
	h := maphash.Comparable(s.seed, recordKey{scope, key})
	return &s.shards[h%uint64(len(s.shards))], h
}

// Local reports that the store's records live in this process's memory (see
// idempotency.LocalStore).
func (s *Store) Local() {}

// after returns the time d after now, or the latest time when that does not fit (a claim held
// until released: idempotency.UntilReleased).
func after(now int64, d time.Duration) int64 {
	if d > 0 && now > math.MaxInt64-int64(d) {
		return math.MaxInt64
	}
	return now + int64(d)
}

// expired reports whether the record's retention window has passed and no live lease holds it.
func (rec *record) expired(now int64) bool {
	return now >= rec.expiresAt && (rec.completed || now >= rec.lockedUntil)
}

// Claim implements idempotency.Store.
func (s *Store) Claim(ctx context.Context, req idempotency.ClaimRequest) (idempotency.Claim, error) {
	if err := ctx.Err(); err != nil {
		return idempotency.Claim{}, err
	}
	if !fits(req) {
		return idempotency.Claim{}, errTooLong
	}
	now := s.now().UnixNano()
	sh, h := s.shardOf(req.Scope, req.Key)

	sh.mu.Lock()
	defer sh.mu.Unlock()
	i := sh.get(h, req.Scope, req.Key)
	var rec *record
	if i != none {
		rec = sh.records.at(i)
	}
	switch {
	case rec == nil:
		if sh.n >= s.perShard && !s.makeRoom(sh, now) {
			return idempotency.Claim{}, ErrFull
		}
		if err := s.resize(sh, 0, int64(len(req.Scope)+len(req.Key)+len(req.Fingerprint)), now); err != nil {
			return idempotency.Claim{}, err
		}
		rec = sh.records.at(sh.add(h))
		rec.identify(req.Scope, req.Key, req.Fingerprint)
		rec.expiresAt, rec.retention = after(now, req.Retention), req.Retention
	case rec.expired(now):
		sh.unlink(i) // not evicted by resize
		if err := s.resize(sh, rec.bytes(), int64(len(req.Scope)+len(req.Key)+len(req.Fingerprint)), now); err != nil {
			if rec.completed {
				sh.link(i)
			}
			return idempotency.Claim{}, err
		}
		rec.identify(req.Scope, req.Key, req.Fingerprint)
		rec.expiresAt, rec.retention = after(now, req.Retention), req.Retention
		rec.completed, rec.steps, rec.status = false, nil, 0
	case rec.fingerprint() != req.Fingerprint:
		return idempotency.Claim{Status: idempotency.Mismatch}, nil
	case rec.completed:
		resp, err := rec.response()
		if err != nil {
			return idempotency.Claim{}, err
		}
		return idempotency.Claim{Status: idempotency.Completed, Response: resp}, nil
	case now < rec.lockedUntil:
		return idempotency.Claim{Status: idempotency.InProgress, LockedUntil: time.Unix(0, rec.lockedUntil)}, nil
	}
	// New, expired, or in progress with its lease ended: take it (its steps read first, so that
	// a record that cannot be read is not left held by nobody).
	steps, err := pairs.Steps(rec.steps)
	if err != nil {
		return idempotency.Claim{}, err
	}
	rec.token = s.token.Add(1)
	rec.lockedUntil = after(now, req.Lease)
	return idempotency.Claim{
		Status: idempotency.Claimed,
		Lease:  idempotency.Lease{Scope: req.Scope, Key: req.Key, Token: rec.token},
		Steps:  steps,
	}, nil
}

// makeRoom frees a record of a full shard, under its lock: the oldest completed one (with one
// retention for all keys, as one Runner gives, completed records expire in the order they
// completed, so it is the first to expire; Runners of different retentions sharing a store
// may see a live record evicted before an expired one of a shorter retention, until Reap
// removes that), else the expired ones in progress. It reports whether there is room.
func (s *Store) makeRoom(sh *shard, now int64) bool {
	if old := sh.oldest; old != none {
		s.evict(sh, old, now)
		return true
	}
	return s.reapShard(sh, now) > 0 // a scan, only when the shard holds nothing but claims
}

// replay is a copy of a stored response, made in one allocation with room for the values of a
// few headers.
type replay struct {
	resp   idempotency.Response
	values [4]string
}

// response returns a copy of the stored response. The header's names and values are substrings
// of the record's stored string (strings cannot change); the body is copied.
func (rec *record) response() (*idempotency.Response, error) {
	r := &replay{}
	r.resp.Status = rec.status
	if body := rec.stored[rec.headerLen:]; len(body) > 0 {
		r.resp.Body = []byte(body)
	}
	var err error
	r.resp.Header, err = pairs.HeaderOf(rec.stored[:rec.headerLen], r.values[:0])
	return &r.resp, err
}

// withHeld calls fn with the record, under its shard's lock, if lease still holds it (in
// progress, same token); otherwise it returns idempotency.ErrFenced.
func (s *Store) withHeld(ctx context.Context, lease idempotency.Lease, fn func(sh *shard, i int32, rec *record, now int64) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	now := s.now().UnixNano()
	sh, h := s.shardOf(lease.Scope, lease.Key)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	i := sh.get(h, lease.Scope, lease.Key)
	if i == none || sh.records.at(i).completed || sh.records.at(i).token != lease.Token {
		return idempotency.ErrFenced
	}
	return fn(sh, i, sh.records.at(i), now)
}

// Extend implements idempotency.Store.
func (s *Store) Extend(ctx context.Context, lease idempotency.Lease, d time.Duration) error {
	return s.withHeld(ctx, lease, func(_ *shard, _ int32, rec *record, now int64) error {
		rec.lockedUntil = after(now, d)
		return nil
	})
}

// SaveStep implements idempotency.Store.
func (s *Store) SaveStep(ctx context.Context, lease idempotency.Lease, name string, result json.RawMessage) error {
	return s.withHeld(ctx, lease, func(sh *shard, _ int32, rec *record, now int64) error {
		steps, err := pairs.Append(rec.steps, name, result)
		if err != nil {
			return err
		}
		was := rec.bytes()
		if err := s.resize(sh, was, was+int64(len(steps)-len(rec.steps)), now); err != nil {
			return err
		}
		rec.steps = steps
		return nil
	})
}

// Complete implements idempotency.Store. The record is kept for its retention window after the
// completion, when that is later than after its creation.
func (s *Store) Complete(ctx context.Context, lease idempotency.Lease, resp idempotency.Response) error {
	stored, headerLen, err := pairs.Text(resp.Header, resp.Body) // outside the lock: bodies may be large
	if err != nil {
		return err
	}
	if headerLen > math.MaxInt32 {
		return errTooLong
	}
	return s.withHeld(ctx, lease, func(sh *shard, i int32, rec *record, now int64) error {
		if err := s.resize(sh, rec.bytes(), int64(len(rec.ident)+len(stored)), now); err != nil {
			return err
		}
		rec.expiresAt = max(rec.expiresAt, after(now, rec.retention))
		rec.completed = true
		rec.status, rec.stored, rec.headerLen = resp.Status, stored, int32(headerLen)
		rec.steps = nil
		rec.lockedUntil = 0
		sh.link(i)
		return nil
	})
}

// Release implements idempotency.Store.
func (s *Store) Release(ctx context.Context, lease idempotency.Lease) error {
	return s.withHeld(ctx, lease, func(sh *shard, i int32, rec *record, now int64) error {
		if len(rec.steps) == 0 {
			sh.remove(i)
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

// reapShard deletes the shard's expired records, under its lock, and returns how many. When
// that leaves the shard's slots mostly free, it compacts them.
func (s *Store) reapShard(sh *shard, now int64) int {
	n := 0
	for i := range sh.records.n {
		if rec := sh.records.at(i); rec.used && rec.expired(now) {
			sh.remove(i)
			n++
		}
	}
	if sh.records.n >= minCompact && sh.n <= int(sh.records.n)/4 {
		sh.compact()
	}
	return n
}

// minCompact is the fewest slots that a shard compacts.
const minCompact = 1024

// compact moves the shard's records to new slots with no free ones (and its index to a new map),
// so that the memory of a burst of keys is given back once they are reaped.
func (sh *shard) compact() {
	slot := make([]int32, sh.records.n) // old slot -> new
	var records slots
	for i := range sh.records.n {
		if rec := sh.records.at(i); rec.used {
			slot[i] = records.add()
			*records.at(slot[i]) = *rec
		}
	}
	moved := func(i int32) int32 {
		if i == none {
			return none
		}
		return slot[i]
	}
	index := make(map[uint64]int32, len(sh.index))
	for h, i := range sh.index {
		index[h] = slot[i]
	}
	for i := range records.n {
		rec := records.at(i)
		rec.sameHash, rec.prev, rec.next = moved(rec.sameHash), moved(rec.prev), moved(rec.next)
	}
	sh.records, sh.index, sh.free = records, index, none
	sh.oldest, sh.newest = moved(sh.oldest), moved(sh.newest)
}

// slots holds a shard's records in chunks of chunkSize, so that a growing shard never copies its
// records (a copy of a large array would hold the shard's lock). The first chunk grows as needed,
// so that a small store stays small; the others are made whole.
type slots struct {
	chunks [][]record
	n      int32 // slots, used or free
}

const (
	chunkBits = 6
	chunkSize = 1 << chunkBits
)

// at returns the record of slot i, one of the n slots.
func (s *slots) at(i int32) *record { return &s.chunks[i>>chunkBits][i&(chunkSize-1)] }

// add adds a slot, and returns it.
func (s *slots) add() int32 {
	if s.n%chunkSize == 0 {
		var chunk []record
		if s.n > 0 {
			chunk = make([]record, 0, chunkSize)
		}
		s.chunks = append(s.chunks, chunk)
	}
	last := &s.chunks[len(s.chunks)-1]
	*last = append(*last, record{})
	s.n++
	return s.n - 1
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

// Bytes returns what the records hold that MaxBytes bounds (see WithMaxBytes).
func (s *Store) Bytes() int64 {
	var n int64
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		n += sh.bytes
		sh.mu.Unlock()
	}
	return n
}

// Evicted returns how many completed records were evicted, before their retention window ended,
// to keep the store within MaxRecords. A growing count says that the bound is too small for the
// traffic and the retention: those keys were forgotten early.
func (s *Store) Evicted() int64 { return s.evicted.Load() }

// link appends the completed record of slot i to the shard's list.
func (sh *shard) link(i int32) {
	rec := sh.records.at(i)
	rec.prev, rec.next = sh.newest, none
	if sh.newest != none {
		sh.records.at(sh.newest).next = i
	} else {
		sh.oldest = i
	}
	sh.newest = i
}

// unlink takes the record of slot i out of the shard's list, if it is in it.
func (sh *shard) unlink(i int32) {
	rec := sh.records.at(i)
	if !rec.completed {
		return
	}
	if rec.prev != none {
		sh.records.at(rec.prev).next = rec.next
	} else {
		sh.oldest = rec.next
	}
	if rec.next != none {
		sh.records.at(rec.next).prev = rec.prev
	} else {
		sh.newest = rec.prev
	}
	rec.prev, rec.next = none, none
}
