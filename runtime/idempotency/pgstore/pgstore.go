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
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/idemlint/idemlint/runtime/idempotency"
)

// DB is what the store needs from its database handle; *pgxpool.Pool implements it.
type DB interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Begin(ctx context.Context) (pgx.Tx, error)
}

// querier is DB or a transaction.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
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

const claimSQL = `
WITH now AS (SELECT coalesce($6::timestamptz, clock_timestamp()) AS t),
claimed AS (
    INSERT INTO idempotency_keys AS k
           (scope, key, fingerprint, state, token, locked_until, steps, created_at, expires_at)
    SELECT $1, $2, $3, 'in_progress', nextval('idempotency_fence_seq'),
           now.t + $4::bigint * interval '1 microsecond', '{}'::jsonb,
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
        steps        = CASE WHEN k.expires_at <= excluded.created_at THEN '{}'::jsonb ELSE k.steps END,
        created_at   = CASE WHEN k.expires_at <= excluded.created_at THEN excluded.created_at ELSE k.created_at END,
        expires_at   = CASE WHEN k.expires_at <= excluded.created_at THEN excluded.expires_at ELSE k.expires_at END
    WHERE k.expires_at <= excluded.created_at
       OR (k.state = 'in_progress' AND k.locked_until <= excluded.created_at AND k.fingerprint = excluded.fingerprint)
    RETURNING k.token, k.steps
)
SELECT true, c.token, c.steps, NULL::text, NULL::text, NULL::timestamptz, NULL::integer, NULL::jsonb, NULL::bytea
FROM claimed c
UNION ALL
SELECT false, k.token, NULL::jsonb, k.fingerprint, k.state, k.locked_until, k.status, k.header, k.body
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
		err := s.db.QueryRow(ctx, claimSQL, req.Scope, req.Key, req.Fingerprint,
			micros(req.Lease), micros(req.Retention), s.nowArg()).
			Scan(&claimed, &token, &steps, &fingerprint, &state, &lockedUntil, &status, &header, &body)
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
			if err := decodeSteps(steps, &c.Steps); err != nil {
				return idempotency.Claim{}, err
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
			if len(header) > 0 {
				if err := json.Unmarshal(header, &resp.Header); err != nil {
					return idempotency.Claim{}, fmt.Errorf("pgstore: claim: decoding the stored header: %w", err)
				}
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

func decodeSteps(raw []byte, into *map[string]json.RawMessage) error {
	if len(raw) == 0 {
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return fmt.Errorf("pgstore: decoding the recorded steps: %w", err)
	}
	if len(m) > 0 {
		*into = m
	}
	return nil
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
	tag, err := s.db.Exec(ctx, extendSQL, lease.Scope, lease.Key, lease.Token, micros(d), s.nowArg())
	return fenced("extend", tag, err)
}

const saveStepSQL = `
UPDATE idempotency_keys
SET steps = steps || jsonb_build_object($4::text, $5::text::jsonb)
WHERE ` + held

// SaveStep implements idempotency.Store.
func (s *Store) SaveStep(ctx context.Context, lease idempotency.Lease, name string, result json.RawMessage) error {
	return s.saveStep(ctx, s.db, lease, name, result)
}

func (s *Store) saveStep(ctx context.Context, q querier, lease idempotency.Lease, name string, result json.RawMessage) error {
	if !json.Valid(result) {
		return fmt.Errorf("pgstore: save step %q: the result is not valid JSON", name)
	}
	tag, err := q.Exec(ctx, saveStepSQL, lease.Scope, lease.Key, lease.Token, name, string(result))
	return fenced("save step", tag, err)
}

const completeSQL = `
UPDATE idempotency_keys
SET state = 'completed', status = $4, header = $5::text::jsonb, body = $6,
    locked_until = NULL, steps = '{}'::jsonb,
    completed_at = coalesce($7::timestamptz, clock_timestamp())
WHERE ` + held

// Complete implements idempotency.Store.
func (s *Store) Complete(ctx context.Context, lease idempotency.Lease, resp idempotency.Response) error {
	return s.complete(ctx, s.db, lease, resp)
}

func (s *Store) complete(ctx context.Context, q querier, lease idempotency.Lease, resp idempotency.Response) error {
	var header *string
	if len(resp.Header) > 0 {
		b, err := json.Marshal(map[string][]string(resp.Header))
		if err != nil {
			return fmt.Errorf("pgstore: complete: %w", err)
		}
		h := string(b)
		header = &h
	}
	body := resp.Body
	if body == nil {
		body = []byte{}
	}
	tag, err := q.Exec(ctx, completeSQL, lease.Scope, lease.Key, lease.Token, int32(resp.Status), header, body, s.nowArg())
	return fenced("complete", tag, err)
}

const releaseSQL = `
WITH deleted AS (
    DELETE FROM idempotency_keys WHERE ` + held + ` AND steps = '{}'::jsonb
    RETURNING 1
), unlocked AS (
    UPDATE idempotency_keys SET locked_until = coalesce($4::timestamptz, clock_timestamp())
    WHERE ` + held + ` AND steps <> '{}'::jsonb
    RETURNING 1
)
SELECT (SELECT count(*) FROM deleted) + (SELECT count(*) FROM unlocked)`

// Release implements idempotency.Store.
func (s *Store) Release(ctx context.Context, lease idempotency.Lease) error {
	var n int64
	if err := s.db.QueryRow(ctx, releaseSQL, lease.Scope, lease.Key, lease.Token, s.nowArg()).Scan(&n); err != nil {
		return fmt.Errorf("pgstore: release: %w", err)
	}
	if n == 0 {
		return idempotency.ErrFenced
	}
	return nil
}

// reapBatch bounds the rows one reaping statement deletes, to keep its locks short.
const reapBatch = 1000

const reapSQL = `
WITH doomed AS (
    SELECT scope, key FROM idempotency_keys
    WHERE expires_at <= coalesce($1::timestamptz, clock_timestamp())
    LIMIT $2
    FOR UPDATE SKIP LOCKED
)
DELETE FROM idempotency_keys k USING doomed d
WHERE k.scope = d.scope AND k.key = d.key`

// Reap implements idempotency.Store. It deletes in batches of reapBatch rows and skips rows that
// are locked (in use) at the moment.
func (s *Store) Reap(ctx context.Context) (int, error) {
	total := 0
	for {
		tag, err := s.db.Exec(ctx, reapSQL, s.nowArg(), reapBatch)
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

// BeginTx implements idempotency.TxStore.
func (s *Store) BeginTx(ctx context.Context) (idempotency.StoreTx, error) {
	tx, err := s.db.Begin(ctx)
	if err != nil {
		return nil, fmt.Errorf("pgstore: begin: %w", err)
	}
	return &storeTx{s: s, tx: tx}, nil
}

type storeTx struct {
	s  *Store
	tx pgx.Tx
}

func (t *storeTx) SaveStep(ctx context.Context, lease idempotency.Lease, name string, result json.RawMessage) error {
	return t.s.saveStep(ctx, t.tx, lease, name, result)
}

func (t *storeTx) Complete(ctx context.Context, lease idempotency.Lease, resp idempotency.Response) error {
	return t.s.complete(ctx, t.tx, lease, resp)
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
