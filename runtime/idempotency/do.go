package idempotency

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults of Runner.
const (
	DefaultLease        = 30 * time.Second
	DefaultRetention    = 24 * time.Hour
	DefaultStoreTimeout = 5 * time.Second
	// DefaultMaxResponseBytes is the default bound of a stored response (1 MiB).
	DefaultMaxResponseBytes = 1 << 20
)

// DefaultRecordHeaders are the response headers stored with a response and replayed: the
// representation headers (RFC 9110, section 8), which say how to read the body (a gzip body is
// gzip bytes only with its Content-Encoding), and the headers that say what was created or
// varies with the request. Names are in canonical form (http.CanonicalHeaderKey).
var DefaultRecordHeaders = []string{
	"Content-Type", "Content-Encoding", "Content-Language", "Content-Location", "Content-Disposition",
	"Content-Range", "Content-Digest", "Repr-Digest", "Last-Modified", "Etag", "Location", "Vary",
}

// InProgressRetryAfter is the wait that Do suggests (and the middleware's 409 sends as
// Retry-After) when another worker holds the key. When the work will end cannot be known: the
// lease only says when a crashed worker's key may be taken over, which is far too long to make a
// live client wait (30 s for a 2 s request). A second is the shortest wait that Retry-After can
// express, and a retry that finds the key still in progress costs the store one read.
const InProgressRetryAfter = time.Second

// MinRetentionLeases is how many leases a Runner's Retention must span at least: a key must be
// remembered well past the lease that a crashed worker's retry waits out.
const MinRetentionLeases = 4

// ErrInvalidConfig is wrapped by the error of Runner.Validate and Config.Validate. Runner.Do
// returns it without claiming anything; Middleware panics with it, when it is built.
var ErrInvalidConfig = errors.New("idempotency: invalid configuration")

// DefaultStorable reports whether a response with this status is a final business outcome that
// is stored and replayed: 2xx, 303 See Other (post/redirect/get: the request was processed, and
// the response says where its result is), and 4xx except those that are not deterministic
// (408 Request Timeout, 409 Conflict, 425 Too Early, 429 Too Many Requests, 499 client closed).
// Everything else releases the key so that a retry processes the request afresh: 1xx, 5xx, and
// the other 3xx (301, 307 and 308 ask for the request to be sent elsewhere, so it was not
// processed here; 302 is ambiguous: answer 303 after processing a POST).
//
// Whatever Storable says, a 4xx is stored only once the operation started executing (see
// MarkStarted): a request rejected before that, as by validation, is not stored.
func DefaultStorable(status int) bool {
	switch {
	case status >= 200 && status < 300, status == http.StatusSeeOther:
		return true
	case status >= 400 && status < 500:
		switch status {
		case http.StatusRequestTimeout, http.StatusConflict, http.StatusTooEarly, http.StatusTooManyRequests, 499:
			return false
		}
		return true
	}
	return false
}

// Func is the work of an operation. Its context carries the operation: Step, DerivedKey and
// CurrentTx use it. Returning an error (or panicking) releases the key without storing anything.
type Func func(ctx context.Context) (Response, error)

// Outcome is the result of Runner.Do.
type Outcome struct {
	// Response is the response to send: the stored one when Replayed, otherwise the one fn returned.
	Response Response
	// Replayed: the key was completed before; fn did not run.
	Replayed bool
	// Stored: fn ran and its response was stored. False with Replayed false means that fn ran but
	// its response was not a final outcome (see Runner.Storable and MarkStarted) and the key was
	// released.
	Stored bool
}

// Runner runs operations at most once per (scope, key) to a stored outcome. The zero values of
// its fields select the defaults; a Runner must not be changed once in use.
type Runner struct {
	// Store keeps the records. Required.
	Store Store
	// Lease is how long a claim holds without a heartbeat; a crashed worker's key can be resumed
	// this long after its last heartbeat. Default DefaultLease. (A LocalStore's claims are held
	// until their work ends: see Heartbeat.)
	Lease time.Duration
	// Heartbeat is how often a running operation renews its lease; it must be shorter than Lease.
	// Default Lease/3; negative disables renewal (then work longer than Lease can be taken over
	// while it runs; fencing still keeps the stale worker from storing its result). A LocalStore's
	// claims are held while the work runs, with nothing to renew (see LocalStore), unless renewal
	// is disabled.
	Heartbeat time.Duration
	// Retention is how long a key is remembered after its first use, or after its completion when
	// that is later; at least MinRetentionLeases times Lease. Default DefaultRetention (24 h).
	// Expired records are replaced on the next use of the key and deleted by Reap; a record whose
	// lease is live never expires.
	Retention time.Duration
	// StoreTimeout bounds every store call. Default DefaultStoreTimeout.
	StoreTimeout time.Duration
	// RecordHeaders are the response headers stored and replayed. Default DefaultRecordHeaders.
	RecordHeaders []string
	// MaxResponseBytes bounds a stored response: its body and recorded header (names and values).
	// A larger one is not stored: Do releases the key and returns a *ResponseTooLargeError, and
	// the middleware stops buffering the handler's response at the bound and answers 500.
	// Default DefaultMaxResponseBytes.
	MaxResponseBytes int64
	// Storable decides which responses are stored. Default DefaultStorable.
	Storable func(status int) bool
	// Logger receives failures that cannot be reported to the caller (a failed release or
	// heartbeat). Default slog.Default().
	Logger *slog.Logger
}

// Validate reports the first problem of r's configuration, as an error wrapping ErrInvalidConfig:
// no Store, a negative duration, a Retention shorter than MinRetentionLeases leases, or a
// Heartbeat that does not beat within the Lease.
func (r *Runner) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrInvalidConfig}, args...)...)
	}
	switch {
	case r.Store == nil:
		return bad("Runner.Store is nil")
	case r.Lease < 0 || r.Retention < 0 || r.StoreTimeout < 0 || r.MaxResponseBytes < 0:
		return bad("Lease, Retention, StoreTimeout and MaxResponseBytes must not be negative")
	case r.retention() < MinRetentionLeases*r.lease():
		return bad("Retention (%v) must be at least %d times the Lease (%v): a key must be remembered well past "+
			"the lease that the retry of a crashed request waits out, and a live lease is never expired", r.retention(), MinRetentionLeases, r.lease())
	case r.heartbeat() >= r.lease():
		return bad("Heartbeat (%v) must be shorter than the Lease (%v), or the lease lapses between beats", r.heartbeat(), r.lease())
	}
	return nil
}

// Do runs fn at most once to a stored outcome per (scope, key, fingerprint) with the default
// policy; see Runner.Do.
func Do(ctx context.Context, store Store, scope, key, fingerprint string, fn Func) (Outcome, error) {
	r := Runner{Store: store}
	return r.Do(ctx, scope, key, fingerprint, fn)
}

// Do claims the key in scope and then:
//   - completed before, same fingerprint: returns the stored response (Replayed) without calling fn;
//   - used before with another fingerprint: returns ErrMismatch;
//   - held by a live worker: returns an *InProgressError (errors.Is ErrInProgress);
//   - otherwise calls fn. A final outcome (Storable, and for a 4xx, once execution started: see
//     MarkStarted) is stored and returned (Stored). Anything else releases the key for a clean
//     retry: a non-storable status or a rejection before execution (returned, not stored), an
//     error from fn (returned), a cancelled ctx (the response is returned with ctx's error) or a
//     panic (the key is released and the panic continues).
//
// When the store fails, Do returns a *StoreError (errors.Is ErrStoreUnavailable); if that happens
// before fn runs, the key is not consumed. If the operation's lease was taken over by another
// worker, Do returns ErrFenced and nothing of this attempt is stored. A scope or key that is not
// text (see ValidateScope and ValidateKey) gives a *ScopeError or *KeyError, a fingerprint that is
// not (ValidateFingerprint) a *FingerprintError, and a misconfigured
// Runner an error wrapping ErrInvalidConfig, before anything is claimed.
//
// Work in fn that is not inside a Step and not in the store's transaction (CurrentTx) is not
// protected against repetition: a retry after a release runs it again. Put side effects in steps.
func (r *Runner) Do(ctx context.Context, scope, key, fingerprint string, fn Func) (Outcome, error) {
	if err := r.Validate(); err != nil {
		return Outcome{}, err
	}
	if err := ValidateScope(scope); err != nil {
		return Outcome{}, err
	}
	if err := ValidateKey(key); err != nil {
		return Outcome{}, err
	}
	if err := ValidateFingerprint(fingerprint); err != nil {
		return Outcome{}, err
	}
	return r.claim(ctx, scope, key, fingerprint, fn, false)
}

// claim is Do once r, scope and key are known to be valid; with detach, the work runs on a context
// that is not cancelled with ctx (the middleware: a client that goes away does not cancel the
// work).
func (r *Runner) claim(ctx context.Context, scope, key, fingerprint string, fn Func, detach bool) (Outcome, error) {
	lease, heartbeat := r.lease(), r.heartbeat()
	if _, local := r.Store.(LocalStore); local && heartbeat > 0 {
		lease, heartbeat = UntilReleased, 0 // held in this process's memory while the work runs
	}
	cctx, cancel := r.storeContext(ctx)
	c, err := r.Store.Claim(cctx, ClaimRequest{
		Scope:       scope,
		Key:         key,
		Fingerprint: fingerprint,
		Lease:       lease,
		Retention:   r.retention(),
	})
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return Outcome{}, context.Cause(ctx)
		}
		return Outcome{}, &StoreError{Op: "claim", Err: err}
	}
	switch c.Status {
	case Completed:
		if c.Response == nil {
			return Outcome{}, &StoreError{Op: "claim", Err: errors.New("completed record without a response")}
		}
		return Outcome{Response: *c.Response, Replayed: true}, nil
	case Mismatch:
		return Outcome{}, ErrMismatch
	case InProgress:
		return Outcome{}, &InProgressError{RetryAfter: InProgressRetryAfter, LockedUntil: c.LockedUntil}
	case Claimed:
	default:
		return Outcome{}, &StoreError{Op: "claim", Err: errors.New("unexpected claim status " + c.Status.String())}
	}

	op := &operation{r: r, store: r.Store, lease: c.Lease, heartbeat: heartbeat, steps: c.Steps}
	op.started.Store(len(c.Steps) > 0) // an earlier attempt's recorded steps: execution started then
	op.txStore, _ = r.Store.(TxStore)
	op.final.op = op
	if detach {
		op.uncancelled.parent = ctx
		ctx = &op.uncancelled
	}
	return op.run(ctx, fn)
}

func (r *Runner) lease() time.Duration {
	if r.Lease > 0 {
		return r.Lease
	}
	return DefaultLease
}

func (r *Runner) retention() time.Duration {
	if r.Retention > 0 {
		return r.Retention
	}
	return DefaultRetention
}

func (r *Runner) storeTimeout() time.Duration {
	if r.StoreTimeout > 0 {
		return r.StoreTimeout
	}
	return DefaultStoreTimeout
}

func (r *Runner) maxResponseBytes() int64 {
	if r.MaxResponseBytes > 0 {
		return r.MaxResponseBytes
	}
	return DefaultMaxResponseBytes
}

func (r *Runner) heartbeat() time.Duration {
	switch {
	case r.Heartbeat < 0:
		return 0
	case r.Heartbeat > 0:
		return r.Heartbeat
	}
	return r.lease() / 3
}

func (r *Runner) storable(status int) bool {
	if r.Storable != nil {
		return r.Storable(status)
	}
	return DefaultStorable(status)
}

// storeContext bounds one store call by StoreTimeout, except for a LocalStore.
func (r *Runner) storeContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, local := r.Store.(LocalStore); local {
		return ctx, nop
	}
	return context.WithTimeout(ctx, r.storeTimeout())
}

func nop() {}

func (r *Runner) logger() *slog.Logger {
	if r.Logger != nil {
		return r.Logger
	}
	return slog.Default()
}

// recorded returns the part of resp that is stored: status, body and the RecordHeaders, and its
// size (the body, the header's names and values). It shares resp's body and header, or its
// header's values in a map from recordedHeaders, which it reports (done with it, put it back). A
// store copies what it keeps.
func (r *Runner) recorded(resp Response) (rec Response, size int64, pooled bool) {
	names := r.RecordHeaders
	if names == nil {
		names = DefaultRecordHeaders
	}
	rec = Response{Status: resp.Status, Body: resp.Body}
	size = int64(len(resp.Body))
	if n, all := recordsAll(names, resp.Header); all {
		if len(resp.Header) > 0 {
			rec.Header = resp.Header
		}
		return rec, size + n, false
	}
	into := recordedHeaders.Get().(http.Header)
	for key, vs := range resp.Header { // a few headers, against a dozen names
		if len(vs) == 0 {
			continue
		}
		// A trailer (http.TrailerPrefix) is recorded under the rule of its name.
		name, trailer := strings.CutPrefix(key, http.TrailerPrefix)
		// A name as given (Header().Set makes it canonical), else one that differs in case.
		if slices.Contains(names, name) || slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(n, name) }) {
			if trailer {
				into[http.TrailerPrefix+http.CanonicalHeaderKey(name)] = vs
			} else {
				into[http.CanonicalHeaderKey(key)] = vs // no copy when key is canonical already
			}
			size += headerSize(key, vs)
		}
	}
	if len(into) == 0 {
		recordedHeaders.Put(into)
		return rec, size, false
	}
	rec.Header = into
	return rec, size, true
}

// recordsAll reports whether every header of h is recorded as it is: one of names, in canonical
// form, with values (as a small JSON handler's Content-Type and Location are); and if so, the
// size of their names and values.
func recordsAll(names []string, h http.Header) (size int64, all bool) {
	for key, vs := range h {
		if len(vs) == 0 || !slices.Contains(names, key) || !isCanonical(key) {
			return 0, false
		}
		size += headerSize(key, vs)
	}
	return size, true
}

// headerSize is what a header's name and values take in a store: the name once per value.
func headerSize(key string, vs []string) int64 {
	n := 0
	for _, v := range vs {
		n += len(key) + len(v)
	}
	return int64(n)
}

// isCanonical reports whether http.CanonicalHeaderKey(key) is key, in a quarter of its
// instructions: letters are upper-case at the start and after a hyphen, lower-case elsewhere. (It
// may say false for a key that CanonicalHeaderKey leaves alone, one that is not a valid header
// name; never true for one it changes.)
func isCanonical(key string) bool {
	upper := true
	for i := 0; i < len(key); i++ {
		c := key[i]
		if upper && 'a' <= c && c <= 'z' || !upper && 'A' <= c && c <= 'Z' {
			return false
		}
		upper = c == '-'
	}
	return true
}

// recordedHeaders recycles the headers that recorded fills (empty): a store copies what it keeps.
var recordedHeaders = sync.Pool{New: func() any { return make(http.Header, 4) }}

// operation is one claimed attempt at a key.
type operation struct {
	r       *Runner
	store   Store
	txStore TxStore // nil when the store is not transactional
	lease   Lease
	// heartbeat is how often the lease is renewed while the work runs; 0: never.
	heartbeat time.Duration
	fenced    atomic.Bool
	started   atomic.Bool // execution started (MarkStarted): a 4xx is an outcome, not a rejection

	mu    sync.Mutex
	steps map[string]json.RawMessage // recovery points, recorded by this or earlier attempts
	ran   map[string]bool            // step names used in this attempt

	final       phase         // fn's own work, completed with the response
	ctx         opContext     // fn's context
	uncancelled withoutCancel // the parent of ctx when the work is detached from the caller's

	hb atomic.Pointer[heartbeat] // while the work runs, if the lease is renewed
}

// holdRow marks a phase's transaction as holding the record's row (see TxStore): it waits for a
// renewal in flight, and keeps the heartbeat from renewing until releaseRow.
func (op *operation) holdRow() {
	h := op.hb.Load()
	if h == nil {
		return
	}
	h.mu.Lock()
	for h.running {
		h.cond.Wait()
	}
	if h.op == op {
		h.holders++
	}
	h.mu.Unlock()
}

// releaseRow ends a holdRow, once its transaction has ended; a renewal skipped meanwhile runs now.
func (op *operation) releaseRow() {
	h := op.hb.Load()
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.op != op || h.holders == 0 { // stopped (and maybe serving another operation)
		return
	}
	h.holders--
	if h.holders == 0 && h.skipped && !h.stopped {
		h.skipped = false
		if h.running {
			h.early = true
		} else {
			h.timer.Reset(0)
		}
	}
}

// withoutCancel is context.WithoutCancel(parent), kept in the operation rather than allocated:
// the parent's values, never done.
type withoutCancel struct{ parent context.Context }

func (*withoutCancel) Deadline() (time.Time, bool) { return time.Time{}, false }
func (*withoutCancel) Done() <-chan struct{}       { return nil }
func (*withoutCancel) Err() error                  { return nil }
func (c *withoutCancel) Value(key any) any         { return c.parent.Value(key) }

// opContext is the context of an operation's work: cancellable (a lost lease stops the work)
// and carrying the final phase, in one value kept in the operation.
type opContext struct {
	context.Context
	phase *phase
}

func (c *opContext) Value(key any) any {
	if key == (phaseKey{}) {
		return c.phase
	}
	return c.Context.Value(key)
}

// phase is a unit of work that commits atomically: a step, or the final part of the operation.
// Its transaction is begun when first asked for (CurrentTx), so that a phase that makes no
// business writes in the store's database costs no transaction.
type phase struct {
	op   *operation
	step string // "" for the final phase

	mu   sync.Mutex
	tx   StoreTx
	done bool
}

type phaseKey struct{}

func phaseFrom(ctx context.Context) *phase {
	p, _ := ctx.Value(phaseKey{}).(*phase)
	return p
}

func (p *phase) currentTx(ctx context.Context) (StoreTx, error) {
	if p.op.txStore == nil {
		return nil, ErrNotTransactional
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return nil, errors.New("idempotency: the transaction was asked for after its phase ended")
	}
	if p.tx == nil {
		op := p.op
		op.holdRow()
		cctx, cancel := op.r.storeContext(ctx)
		tx, err := op.txStore.BeginTx(cctx, op.lease)
		cancel()
		switch {
		case errors.Is(err, ErrFenced):
			op.releaseRow()
			op.fenced.Store(true)
			return nil, ErrFenced
		case err != nil:
			op.releaseRow()
			return nil, &StoreError{Op: "begin", Err: err}
		}
		p.tx = tx
	}
	return p.tx, nil
}

// holdsTx reports whether the phase has an open transaction.
func (p *phase) holdsTx() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.tx != nil && !p.done
}

// finish ends the phase and returns its transaction, if one was begun.
func (p *phase) finish() StoreTx {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done = true
	return p.tx
}

func (op *operation) run(ctx context.Context, fn Func) (Outcome, error) {
	work, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	op.ctx = opContext{Context: work, phase: &op.final}
	hb := startHeartbeat(op, ctx, cancel)
	if hb != nil {
		op.hb.Store(hb)
	}

	returned := false
	defer func() {
		if returned {
			return
		}
		// fn panicked (or called runtime.Goexit): release the key, then let the panic go on.
		v := recover()
		op.stopHeartbeat(hb)
		op.abort(ctx, op.final.finish())
		if v != nil {
			panic(v)
		}
	}()
	resp, err := fn(&op.ctx)
	returned = true
	op.stopHeartbeat(hb)
	tx := op.final.finish()

	switch {
	case op.fenced.Load():
		op.abort(ctx, tx)
		return Outcome{}, ErrFenced
	case err != nil:
		op.abort(ctx, tx)
		return Outcome{}, err
	case ctx.Err() != nil:
		op.abort(ctx, tx)
		return Outcome{Response: resp}, context.Cause(ctx)
	case !op.r.storable(resp.Status), resp.Status >= 400 && resp.Status < 500 && !op.started.Load():
		op.abort(ctx, tx)
		return Outcome{Response: resp}, nil
	}

	rec, size, pooled := op.r.recorded(resp)
	if limit := op.r.maxResponseBytes(); size > limit {
		err = &ResponseTooLargeError{Size: size, Limit: limit}
		op.abort(ctx, tx)
	} else {
		err = op.complete(ctx, tx, rec)
	}
	if pooled {
		clear(rec.Header)
		recordedHeaders.Put(rec.Header)
	}
	switch {
	case err == nil:
	case errors.Is(err, ErrFenced):
		return Outcome{}, ErrFenced
	case errors.As(err, new(*ResponseTooLargeError)):
		return Outcome{Response: resp}, err
	case errors.Is(err, ErrResponseTooLarge): // the store's bound
		op.release(ctx)
		return Outcome{Response: resp}, err
	default:
		op.release(ctx)
		return Outcome{}, &StoreError{Op: "complete", Err: err}
	}
	return Outcome{Response: resp, Stored: true}, nil
}

func (op *operation) stopHeartbeat(hb *heartbeat) {
	if hb != nil {
		op.hb.Store(nil)
		hb.stop()
	}
}

// detached returns a context for store calls that must happen even when ctx is cancelled.
func (op *operation) detached(ctx context.Context) (context.Context, context.CancelFunc) {
	if ctx.Done() != nil {
		ctx = context.WithoutCancel(ctx)
	}
	return op.r.storeContext(ctx)
}

func (op *operation) complete(ctx context.Context, tx StoreTx, rec Response) error {
	cctx, cancel := op.detached(ctx)
	defer cancel()
	if tx == nil {
		return op.store.Complete(cctx, op.lease, rec)
	}
	defer op.releaseRow()
	if err := tx.Complete(cctx, op.lease, rec); err != nil {
		tx.Rollback(cctx)
		return err
	}
	return tx.Commit(cctx)
}

// abort rolls back the final transaction, if any, and releases the key.
func (op *operation) abort(ctx context.Context, tx StoreTx) {
	if tx != nil {
		op.rollback(ctx, tx)
	}
	op.release(ctx)
}

// rollback rolls a phase's transaction back, which ends its hold of the row.
func (op *operation) rollback(ctx context.Context, tx StoreTx) {
	cctx, cancel := op.detached(ctx)
	defer cancel()
	defer op.releaseRow()
	if err := tx.Rollback(cctx); err != nil {
		op.r.logger().WarnContext(ctx, "idempotency: rollback failed", "scope", op.lease.Scope, "key", op.lease.Key, "err", err)
	}
}

func (op *operation) release(ctx context.Context) {
	cctx, cancel := op.detached(ctx)
	defer cancel()
	err := op.store.Release(cctx, op.lease)
	if err != nil && !errors.Is(err, ErrFenced) {
		op.r.logger().WarnContext(ctx, "idempotency: release failed; the key stays locked until its lease ends (a LocalStore's: until the process ends)",
			"scope", op.lease.Scope, "key", op.lease.Key, "err", err)
	}
}

// heartbeat renews the lease while fn runs. It uses a timer rather than a goroutine so that
// operations shorter than one interval cost nothing but arming the timer; the timers are
// recycled with their heartbeats.
type heartbeat struct {
	op       *operation
	ctx      context.Context
	cancel   context.CancelCauseFunc
	interval time.Duration

	mu      sync.Mutex
	cond    sync.Cond
	timer   *time.Timer // fires h.beat; made once per heartbeat
	stopped bool
	running bool
	early   bool // the renewal in flight is followed by another at once
	holders int  // phases' transactions holding the record's row: no renewal meanwhile
	skipped bool // a renewal was skipped while the row was held
}

var heartbeats = sync.Pool{New: func() any {
	h := new(heartbeat)
	h.cond.L = &h.mu
	h.timer = time.AfterFunc(time.Hour, h.beat)
	h.timer.Stop()
	return h
}}

// startHeartbeat renews op's lease every Heartbeat while its work runs, until stop; nil when
// renewal is disabled.
func startHeartbeat(op *operation, ctx context.Context, cancel context.CancelCauseFunc) *heartbeat {
	interval := op.heartbeat
	if interval <= 0 {
		return nil
	}
	h := heartbeats.Get().(*heartbeat)
	h.mu.Lock()
	h.op, h.ctx, h.cancel, h.interval = op, ctx, cancel, interval
	h.stopped, h.early, h.holders, h.skipped = false, false, 0, false
	h.timer.Reset(interval)
	h.mu.Unlock()
	return h
}

func (h *heartbeat) beat() {
	h.mu.Lock()
	switch {
	case h.stopped, h.running: // running: a timer reset by releaseRow fired during a renewal
		h.mu.Unlock()
		return
	case h.holders > 0: // a transaction holds the row: nobody can take the key over meanwhile
		h.skipped = true
		h.timer.Reset(h.interval)
		h.mu.Unlock()
		return
	}
	h.running = true
	op := h.op
	h.mu.Unlock()

	cctx, cancel := op.detached(h.ctx)
	err := op.store.Extend(cctx, op.lease, op.r.lease())
	cancel()
	if errors.Is(err, ErrFenced) {
		op.fenced.Store(true)
		h.cancel(ErrFenced) // stop the work: its result can no longer be stored
	} else if err != nil {
		op.r.logger().WarnContext(h.ctx, "idempotency: lease renewal failed", "scope", op.lease.Scope, "key", op.lease.Key, "err", err)
	}

	h.mu.Lock()
	h.running = false
	if !h.stopped && !errors.Is(err, ErrFenced) {
		next := h.interval
		if h.early {
			next, h.early = 0, false
		}
		h.timer.Reset(next)
	}
	h.cond.Broadcast()
	h.mu.Unlock()
}

// stop stops the heartbeat and waits for a renewal in flight. The heartbeat is recycled only when
// its timer had not fired: a callback already on its way must not find it serving another
// operation.
func (h *heartbeat) stop() {
	if h == nil {
		return
	}
	h.mu.Lock()
	h.stopped = true
	pending := !h.timer.Stop()
	for h.running {
		h.cond.Wait()
	}
	h.op, h.ctx, h.cancel = nil, nil, nil
	h.mu.Unlock()
	if !pending {
		heartbeats.Put(h)
	}
}
