// Package pgstore is the PostgreSQL idempotency.Store, on pgx.
//
// It keeps one row per (scope, key) in the table idempotency_keys (see migrations/ and Migrate),
// in the schema first on the connection's search_path. Every store call is one SQL statement, so
// one round trip (Reap deletes in batches, and a claim that raced a concurrent insert runs twice):
//
//   - Claim is one INSERT ... ON CONFLICT DO UPDATE ... WHERE: it creates the row, or takes over a
//     row whose lease ended (or that expired), with a new fencing token from a sequence; when the
//     row cannot be taken, the same statement returns it (completed, in progress or mismatching).
//   - Extend, SaveStep, Complete and Release are UPDATEs (or a DELETE) conditional on the token
//     and the in-progress state, so that a stale worker changes nothing (idempotency.ErrFenced).
//
// Recovery points and response headers are kept as bytes (see migrations/0002_bytes.sql), so
// that every value round-trips exactly. Statements that fail to serialize (SQLSTATE 40001 or
// 40P01, under a default isolation of REPEATABLE READ or SERIALIZABLE) run again, so that a
// stricter database default never turns a concurrent claim into an error.
//
// The store implements idempotency.TxStore: a handler's business writes go through Tx(ctx), the
// transaction of the current phase, which commits together with that phase's record (a step and
// its recovery point, or the final writes and the stored response). If the handler fails, or its
// response is not stored, the transaction rolls back with the key released.
package pgstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/idempotency/internal/pairs"
)

// DB is what the store needs from its database handle; *pgxpool.Pool implements it.
type DB interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Begin(ctx context.Context) (pgx.Tx, error)
}

// Store is a PostgreSQL idempotency.Store.
type Store struct {
	db  DB
	now func() time.Time
}

// Option configures a Store.
type Option func(*Store)

// WithClock makes the store take the time from now instead of the database's clock_timestamp()
// (for tests). With several application servers, keep the default: one clock for all.
func WithClock(now func() time.Time) Option {
	return func(s *Store) { s.now = now }
}

// New returns a store on db (normally a *pgxpool.Pool). Run Migrate once before use.
func New(db DB, opts ...Option) *Store {
	s := &Store{db: db}
	for _, o := range opts {
		o(s)
	}
	return s
}

var (
	_ idempotency.Store   = (*Store)(nil)
	_ idempotency.TxStore = (*Store)(nil)
)

// nowArg is the time parameter of the statements: NULL selects clock_timestamp().
func (s *Store) nowArg() any {
	if s.now == nil {
		return nil
	}
	return s.now()
}

func micros(d time.Duration) int64 { return d.Microseconds() }

// expiredAt is the condition of a row k whose retention window has passed at time t and that no
// live lease holds: such a row is new again to a claim, and reaped.
func expiredAt(t string) string {
	return "(k.expires_at <= " + t + " AND (k.state = 'completed' OR k.locked_until <= " + t + "))"
}

// expiredAtClaim is expiredAt inside ON CONFLICT, where the statement's time is excluded.created_at.
var expiredAtClaim = expiredAt("excluded.created_at")

var claimSQL = `
WITH now AS (SELECT coalesce($6::timestamptz, clock_timestamp()) AS t),
claimed AS (
    INSERT INTO idempotency_keys AS k
           (scope, key, fingerprint, state, token, locked_until, steps, created_at, expires_at)
    SELECT $1, $2, $3, 'in_progress', nextval('idempotency_fence_seq'),
           now.t + $4::bigint * interval '1 microsecond', ''::bytea,
           now.t, now.t + $5::bigint * interval '1 microsecond'
    FROM now
    ON CONFLICT (scope, key) DO UPDATE SET
        token        = excluded.token,
        locked_until = excluded.locked_until,
        fingerprint  = excluded.fingerprint,
        state        = 'in_progress',
        status       = NULL,
        header       = NULL,
        body         = NULL,
        completed_at = NULL,
        steps        = CASE WHEN ` + expiredAtClaim + ` THEN ''::bytea ELSE k.steps END,
        created_at   = CASE WHEN ` + expiredAtClaim + ` THEN excluded.created_at ELSE k.created_at END,
        expires_at   = CASE WHEN ` + expiredAtClaim + ` THEN excluded.expires_at ELSE k.expires_at END
    WHERE ` + expiredAtClaim + `
       OR (k.state = 'in_progress' AND k.locked_until <= excluded.created_at AND k.fingerprint = excluded.fingerprint)
    RETURNING k.token, k.steps
)
SELECT true, c.token, c.steps, NULL::text, NULL::text, NULL::timestamptz, NULL::integer, NULL::bytea, NULL::bytea
FROM claimed c
UNION ALL
SELECT false, k.token, NULL::bytea, k.fingerprint, k.state, k.locked_until, k.status, k.header, k.body
FROM idempotency_keys k
WHERE k.scope = $1 AND k.key = $2 AND NOT EXISTS (SELECT 1 FROM claimed)`

// Claim implements idempotency.Store.
func (s *Store) Claim(ctx context.Context, req idempotency.ClaimRequest) (idempotency.Claim, error) {
	// The fallback SELECT reads the statement's snapshot, which misses a row inserted by a
	// transaction that committed after the statement began (ON CONFLICT does see it). Then the
	// statement returns no row, and a second run sees the row. It cannot happen twice in a row
	// for the same row; three runs leave room for a delete in between.
	for range 3 {
		var (
			claimed     bool
			token       int64
			steps       []byte
			fingerprint *string
			state       *string
			lockedUntil *time.Time
			status      *int32
			header      []byte
			body        []byte
		)
		err := again(ctx, func() error {
			return s.db.QueryRow(ctx, claimSQL, req.Scope, req.Key, req.Fingerprint,
				micros(req.Lease), micros(req.Retention), s.nowArg()).
				Scan(&claimed, &token, &steps, &fingerprint, &state, &lockedUntil, &status, &header, &body)
		})
		if errors.Is(err, pgx.ErrNoRows) {
			continue
		}
		if err != nil {
			return idempotency.Claim{}, fmt.Errorf("pgstore: claim: %w", err)
		}
		switch {
		case claimed:
			c := idempotency.Claim{
				Status: idempotency.Claimed,
				Lease:  idempotency.Lease{Scope: req.Scope, Key: req.Key, Token: token},
			}
			if c.Steps, err = pairs.Steps(steps); err != nil {
				return idempotency.Claim{}, fmt.Errorf("pgstore: claim: decoding the recorded steps: %w", err)
			}
			return c, nil
		case fingerprint == nil || state == nil:
			return idempotency.Claim{}, errors.New("pgstore: claim: malformed row")
		case *fingerprint != req.Fingerprint:
			return idempotency.Claim{Status: idempotency.Mismatch}, nil
		case *state == "completed":
			resp := idempotency.Response{Body: body}
			if status != nil {
				resp.Status = int(*status)
			}
			if resp.Header, err = pairs.Header(header); err != nil {
				return idempotency.Claim{}, fmt.Errorf("pgstore: claim: decoding the stored header: %w", err)
			}
			return idempotency.Claim{Status: idempotency.Completed, Response: &resp}, nil
		default:
			c := idempotency.Claim{Status: idempotency.InProgress}
			if lockedUntil != nil {
				c.LockedUntil = *lockedUntil
			}
			return c, nil
		}
	}
	return idempotency.Claim{}, errors.New("pgstore: claim: the row kept changing under the claim")
}

// maxReruns bounds how often a statement that failed to serialize runs again.
const maxReruns = 10

// again runs one single-statement transaction, and again, after a short jittered pause, while it
// fails to serialize (SQLSTATE 40001 or 40P01: a concurrent statement changed its row under a
// REPEATABLE READ or SERIALIZABLE snapshot). A new run takes a new snapshot; the store's
// statements are all safe to repeat since they decide from what they read. Statements inside a
// transaction (StoreTx) cannot run again alone: their transaction fails instead.
func again(ctx context.Context, stmt func() error) error {
	for n := 0; ; n++ {
		err := stmt()
		var pe *pgconn.PgError
		if n == maxReruns || !errors.As(err, &pe) || (pe.Code != "40001" && pe.Code != "40P01") {
			return err
		}
		t := time.NewTimer(time.Duration(rand.Int64N(int64(100*time.Microsecond) << min(n, 6))))
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return err
		}
	}
}

// exec runs a single-statement transaction through again.
func (s *Store) exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	var tag pgconn.CommandTag
	err := again(ctx, func() error {
		var err error
		tag, err = s.db.Exec(ctx, sql, args...)
		return err
	})
	return tag, err
}

// held is the condition of every statement that acts on a lease.
const held = `scope = $1 AND key = $2 AND token = $3 AND state = 'in_progress'`

func fenced(op string, tag pgconn.CommandTag, err error) error {
	if err != nil {
		return fmt.Errorf("pgstore: %s: %w", op, err)
	}
	if tag.RowsAffected() == 0 {
		return idempotency.ErrFenced
	}
	return nil
}

const extendSQL = `
UPDATE idempotency_keys
SET locked_until = coalesce($5::timestamptz, clock_timestamp()) + $4::bigint * interval '1 microsecond'
WHERE ` + held

// Extend implements idempotency.Store.
func (s *Store) Extend(ctx context.Context, lease idempotency.Lease, d time.Duration) error {
	tag, err := s.exec(ctx, extendSQL, lease.Scope, lease.Key, lease.Token, micros(d), s.nowArg())
	return fenced("extend", tag, err)
}

const saveStepSQL = `
UPDATE idempotency_keys SET steps = steps || $4::bytea
WHERE ` + held

// SaveStep implements idempotency.Store.
func (s *Store) SaveStep(ctx context.Context, lease idempotency.Lease, name string, result json.RawMessage) error {
	return s.saveStep(ctx, s.exec, lease, name, result)
}

// execFunc runs a statement: Store.exec, or a transaction's Exec.
type execFunc func(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)

func (s *Store) saveStep(ctx context.Context, exec execFunc, lease idempotency.Lease, name string, result json.RawMessage) error {
	step, err := pairs.Append(nil, name, result)
	if err != nil {
		return fmt.Errorf("pgstore: save step %q: %w", name, err)
	}
	tag, err := exec(ctx, saveStepSQL, lease.Scope, lease.Key, lease.Token, step)
	return fenced("save step", tag, err)
}

const completeSQL = `
UPDATE idempotency_keys k
SET state = 'completed', status = $4, header = $5, body = $6,
    locked_until = NULL, steps = ''::bytea, completed_at = now.t,
    expires_at = greatest(k.expires_at, now.t + (k.expires_at - k.created_at))
FROM (SELECT coalesce($7::timestamptz, clock_timestamp()) AS t) now
WHERE ` + held

// Complete implements idempotency.Store. The record is kept for its retention window after the
// completion, when that is later than after its creation.
func (s *Store) Complete(ctx context.Context, lease idempotency.Lease, resp idempotency.Response) error {
	return s.complete(ctx, s.exec, lease, resp)
}

func (s *Store) complete(ctx context.Context, exec execFunc, lease idempotency.Lease, resp idempotency.Response) error {
	var header []byte // NULL without a header
	if len(resp.Header) > 0 {
		var err error
		if header, err = pairs.AppendHeader(nil, resp.Header, 0); err != nil {
			return fmt.Errorf("pgstore: complete: %w", err)
		}
	}
	body := resp.Body
	if body == nil {
		body = []byte{}
	}
	tag, err := exec(ctx, completeSQL, lease.Scope, lease.Key, lease.Token, int32(resp.Status), header, body, s.nowArg())
	return fenced("complete", tag, err)
}

const releaseSQL = `
WITH deleted AS (
    DELETE FROM idempotency_keys WHERE ` + held + ` AND steps = ''::bytea
    RETURNING 1
), unlocked AS (
    UPDATE idempotency_keys SET locked_until = coalesce($4::timestamptz, clock_timestamp())
    WHERE ` + held + ` AND steps <> ''::bytea
    RETURNING 1
)
SELECT (SELECT count(*) FROM deleted) + (SELECT count(*) FROM unlocked)`

// Release implements idempotency.Store.
func (s *Store) Release(ctx context.Context, lease idempotency.Lease) error {
	var n int64
	err := again(ctx, func() error {
		return s.db.QueryRow(ctx, releaseSQL, lease.Scope, lease.Key, lease.Token, s.nowArg()).Scan(&n)
	})
	if err != nil {
		return fmt.Errorf("pgstore: release: %w", err)
	}
	if n == 0 {
		return idempotency.ErrFenced
	}
	return nil
}

// reapBatch bounds the rows one reaping statement deletes, to keep its locks short.
const reapBatch = 1000

var reapSQL = `
WITH now AS (SELECT coalesce($1::timestamptz, clock_timestamp()) AS t),
doomed AS (
    SELECT k.scope, k.key FROM idempotency_keys k, now
    WHERE k.expires_at <= now.t AND ` + expiredAt("now.t") + `
    LIMIT $2
    FOR UPDATE OF k SKIP LOCKED
)
DELETE FROM idempotency_keys k USING doomed d
WHERE k.scope = d.scope AND k.key = d.key`

// Reap implements idempotency.Store. It deletes in batches of reapBatch rows, skips rows that are
// locked (in use) at the moment, and never deletes a record whose lease is live.
func (s *Store) Reap(ctx context.Context) (int, error) {
	total := 0
	for {
		tag, err := s.exec(ctx, reapSQL, s.nowArg(), reapBatch)
		if err != nil {
			return total, fmt.Errorf("pgstore: reap: %w", err)
		}
		n := int(tag.RowsAffected())
		total += n
		if n < reapBatch {
			return total, nil
		}
	}
}

// lockSQL is the first statement of a phase's transaction: it takes the key's row for the
// transaction (an UPDATE's lock, so that the heartbeat's and other workers' statements on the row
// wait for it), and the transaction's snapshot under REPEATABLE READ or SERIALIZABLE.
const lockSQL = `SELECT 1 FROM idempotency_keys WHERE ` + held + ` FOR NO KEY UPDATE`

// BeginTx implements idempotency.TxStore: BEGIN, then lock the lease's row (two statements).
func (s *Store) BeginTx(ctx context.Context, lease idempotency.Lease) (idempotency.StoreTx, error) {
	var tx pgx.Tx
	err := again(ctx, func() error { // nothing happened in the transaction yet: it may start again
		var err error
		if tx, err = s.db.Begin(ctx); err != nil {
			return err
		}
		var one int
		if err = tx.QueryRow(ctx, lockSQL, lease.Scope, lease.Key, lease.Token).Scan(&one); err != nil {
			tx.Rollback(ctx)
		}
		return err
	})
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, idempotency.ErrFenced
	case err != nil:
		return nil, fmt.Errorf("pgstore: begin: %w", err)
	}
	return &storeTx{s: s, tx: tx}, nil
}

type storeTx struct {
	s  *Store
	tx pgx.Tx
}

func (t *storeTx) SaveStep(ctx context.Context, lease idempotency.Lease, name string, result json.RawMessage) error {
	return t.s.saveStep(ctx, t.tx.Exec, lease, name, result)
}

func (t *storeTx) Complete(ctx context.Context, lease idempotency.Lease, resp idempotency.Response) error {
	return t.s.complete(ctx, t.tx.Exec, lease, resp)
}

func (t *storeTx) Commit(ctx context.Context) error   { return t.tx.Commit(ctx) }
func (t *storeTx) Rollback(ctx context.Context) error { return t.tx.Rollback(ctx) }

// errOwned is returned by Commit and Rollback of the transaction that Tx returns.
var errOwned = errors.New("pgstore: the transaction belongs to the idempotent operation: it commits or rolls back with the operation's record")

// Tx returns the transaction of the phase running in ctx (the current idempotency.Step, or the
// operation's final phase), beginning it on first use. Make the phase's business writes through
// it; they commit together with the phase's record. Its Commit and Rollback return an error: the
// operation owns the transaction.
//
// It returns idempotency.ErrNoOperation outside an operation, and an error when the operation's
// store is not a pgstore.Store.
func Tx(ctx context.Context) (pgx.Tx, error) {
	t, err := idempotency.CurrentTx(ctx)
	if err != nil {
		return nil, err
	}
	st, ok := t.(*storeTx)
	if !ok {
		return nil, fmt.Errorf("pgstore: the operation's store is not a pgstore.Store (its transaction is a %T)", t)
	}
	return ownedTx{st.tx}, nil
}

type ownedTx struct{ pgx.Tx }

func (ownedTx) Commit(context.Context) error   { return errOwned }
func (ownedTx) Rollback(context.Context) error { return errOwned }
