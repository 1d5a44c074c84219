package pgstore_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/idempotency/pgstore"
	"github.com/idemlint/idemlint/runtime/idempotency/pgstore/pgtest"
	"github.com/idemlint/idemlint/runtime/idempotency/storetest"
)

// queryCounter counts the statements sent to PostgreSQL (BEGIN and COMMIT included).
type queryCounter struct{ n atomic.Int64 }

func (c *queryCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	c.n.Add(1)
	return ctx
}
func (c *queryCounter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

type env struct {
	pool    *pgxpool.Pool
	store   *pgstore.Store
	queries *queryCounter
}

func newEnv(t testing.TB, opts ...pgstore.Option) *env {
	return newEnvWith(t, nil, opts...)
}

// newEnvWith is newEnv with more pool configuration.
func newEnvWith(t testing.TB, configure []func(*pgxpool.Config), opts ...pgstore.Option) *env {
	dsn := pgtest.Schema(t)
	qc := &queryCounter{}
	pool := pgtest.Pool(t, dsn, append([]func(*pgxpool.Config){func(c *pgxpool.Config) {
		c.ConnConfig.Tracer = qc
		c.MaxConns = 16
	}}, configure...)...)
	s := pgstore.New(pool, opts...)
	require.NoError(t, s.Migrate(context.Background()))
	return &env{pool: pool, store: s, queries: qc}
}

func TestConformance(t *testing.T) {
	storetest.Run(t, conformance(t))
}

// conformance returns a storetest factory: one schema for the whole suite, emptied for each test
// (the tests run one at a time), which is much faster than a schema per test.
func conformance(t *testing.T, configure ...func(*pgxpool.Config)) storetest.Factory {
	e := newEnvWith(t, configure)
	return func(t *testing.T, now func() time.Time) idempotency.Store {
		_, err := e.pool.Exec(context.Background(), `TRUNCATE idempotency_keys`)
		require.NoError(t, err)
		return pgstore.New(e.pool, pgstore.WithClock(now))
	}
}

func TestMigrateIsIdempotentAndConcurrent(t *testing.T) {
	dsn := pgtest.Schema(t)
	pool := pgtest.Pool(t, dsn)
	s := pgstore.New(pool)
	var wg sync.WaitGroup
	for range 5 {
		wg.Go(func() { assert.NoError(t, s.Migrate(context.Background())) })
	}
	wg.Wait()
	require.NoError(t, s.Migrate(context.Background()))
	var versions []int
	rows, err := pool.Query(context.Background(), `SELECT version FROM idempotency_schema_migrations ORDER BY version`)
	require.NoError(t, err)
	versions, err = pgx.CollectRows(rows, pgx.RowTo[int])
	require.NoError(t, err)
	ms, err := pgstore.Migrations()
	require.NoError(t, err)
	require.Len(t, versions, len(ms))
	for i, m := range ms {
		assert.Equal(t, m.Version, versions[i])
	}
}

// With the database's own clock (the production default) leases expire in real time.
func TestDatabaseClock(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	req := idempotency.ClaimRequest{Scope: "a", Key: "k", Fingerprint: "fp", Lease: 300 * time.Millisecond, Retention: time.Hour}
	c, err := e.store.Claim(ctx, req)
	require.NoError(t, err)
	require.Equal(t, idempotency.Claimed, c.Status)
	c2, err := e.store.Claim(ctx, req)
	require.NoError(t, err)
	require.Equal(t, idempotency.InProgress, c2.Status)
	assert.WithinDuration(t, time.Now().Add(300*time.Millisecond), c2.LockedUntil, 250*time.Millisecond)
	time.Sleep(400 * time.Millisecond)
	c3, err := e.store.Claim(ctx, req)
	require.NoError(t, err)
	require.Equal(t, idempotency.Claimed, c3.Status)
	assert.Greater(t, c3.Lease.Token, c.Lease.Token)
}

func createBusinessTable(t testing.TB, e *env) {
	_, err := e.pool.Exec(context.Background(), `CREATE TABLE orders (id text PRIMARY KEY)`)
	require.NoError(t, err)
}

func orders(t testing.TB, e *env) []string {
	rows, err := e.pool.Query(context.Background(), `SELECT id FROM orders ORDER BY id`)
	require.NoError(t, err)
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	return ids
}

func insertOrder(ctx context.Context, id string) error {
	tx, err := pgstore.Tx(ctx)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `INSERT INTO orders (id) VALUES ($1)`, id)
	return err
}

func created(body string) idempotency.Response {
	return idempotency.Response{Status: http.StatusCreated, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(body)}
}

func TestBusinessWritesCommitWithTheResponse(t *testing.T) {
	e := newEnv(t)
	createBusinessTable(t, e)
	r := &idempotency.Runner{Store: e.store}
	ctx := context.Background()

	// A 500 rolls the writes back and releases the key.
	out, err := r.Do(ctx, "a", "k", "fp", func(ctx context.Context) (idempotency.Response, error) {
		require.NoError(t, insertOrder(ctx, "o1"))
		return idempotency.Response{Status: 500}, nil
	})
	require.NoError(t, err)
	assert.False(t, out.Stored)
	assert.Empty(t, orders(t, e), "a 5xx must roll the business writes back")

	// An error too.
	_, err = r.Do(ctx, "a", "k", "fp", func(ctx context.Context) (idempotency.Response, error) {
		require.NoError(t, insertOrder(ctx, "o1"))
		return idempotency.Response{}, errors.New("boom")
	})
	require.Error(t, err)
	assert.Empty(t, orders(t, e))

	// A final outcome commits them with the response.
	out, err = r.Do(ctx, "a", "k", "fp", func(ctx context.Context) (idempotency.Response, error) {
		require.NoError(t, insertOrder(ctx, "o1"))
		return created(`{"id":"o1"}`), nil
	})
	require.NoError(t, err)
	assert.True(t, out.Stored)
	assert.Equal(t, []string{"o1"}, orders(t, e))
	out, err = r.Do(ctx, "a", "k", "fp", nil)
	require.NoError(t, err)
	assert.True(t, out.Replayed)
}

func TestStepWritesCommitWithTheRecoveryPoint(t *testing.T) {
	e := newEnv(t)
	createBusinessTable(t, e)
	r := &idempotency.Runner{Store: e.store}
	ctx := context.Background()
	var attempts atomic.Int32
	work := func(ctx context.Context) (idempotency.Response, error) {
		n := attempts.Add(1)
		// A step that fails rolls its own writes back.
		_, err := idempotency.Step(ctx, "bad", func(ctx context.Context) (int, error) {
			if err := insertOrder(ctx, "bad"); err != nil {
				return 0, err
			}
			if n == 1 {
				return 0, errors.New("fails the first time")
			}
			return 1, nil
		})
		if err != nil {
			return idempotency.Response{}, err
		}
		_, err = idempotency.Step(ctx, "good", func(ctx context.Context) (int, error) {
			return 2, insertOrder(ctx, "good")
		})
		require.NoError(t, err)
		if n == 2 {
			// Fails after both steps: the steps stay, the final phase does not.
			require.NoError(t, insertOrder(ctx, "final-2"))
			return idempotency.Response{Status: http.StatusServiceUnavailable}, nil
		}
		require.NoError(t, insertOrder(ctx, "final-3"))
		return created(`{}`), nil
	}
	_, err := r.Do(ctx, "a", "k", "fp", work)
	require.Error(t, err)
	assert.Empty(t, orders(t, e))

	out, err := r.Do(ctx, "a", "k", "fp", work)
	require.NoError(t, err)
	assert.Equal(t, http.StatusServiceUnavailable, out.Response.Status)
	assert.Equal(t, []string{"bad", "good"}, orders(t, e), "committed steps stay; the final phase rolled back")

	out, err = r.Do(ctx, "a", "k", "fp", work)
	require.NoError(t, err)
	assert.True(t, out.Stored)
	assert.Equal(t, []string{"bad", "final-3", "good"}, orders(t, e), "the steps did not run again")
}

func TestStaleWorkerWritesAreRolledBack(t *testing.T) {
	clock := storetest.NewClock()
	e := newEnv(t, pgstore.WithClock(clock.Now))
	createBusinessTable(t, e)
	r := &idempotency.Runner{Store: e.store, Lease: 10 * time.Second, Heartbeat: -1}
	ctx := context.Background()
	_, err := r.Do(ctx, "a", "k", "fp", func(ctx context.Context) (idempotency.Response, error) {
		// Stalls past its lease; another worker takes over and completes. (While a phase's
		// transaction is open nobody can: see TestNoTakeoverWhileAPhaseHoldsTheKey.)
		clock.Advance(11 * time.Second)
		out, err := r.Do(context.Background(), "a", "k", "fp", func(ctx context.Context) (idempotency.Response, error) {
			return created(`"winner"`), insertOrder(ctx, "winner")
		})
		require.NoError(t, err)
		require.True(t, out.Stored)
		if err := insertOrder(ctx, "stale"); err != nil {
			return idempotency.Response{}, err
		}
		return created(`"stale"`), nil
	})
	require.ErrorIs(t, err, idempotency.ErrFenced)
	assert.Equal(t, []string{"winner"}, orders(t, e), "the stale worker's writes must be rolled back")
	out, err := r.Do(ctx, "a", "k", "fp", nil)
	require.NoError(t, err)
	assert.Equal(t, `"winner"`, string(out.Response.Body))
}

func TestTxIsOwnedByTheOperation(t *testing.T) {
	e := newEnv(t)
	_, err := pgstore.Tx(context.Background())
	assert.ErrorIs(t, err, idempotency.ErrNoOperation)
	r := &idempotency.Runner{Store: e.store}
	_, err = r.Do(context.Background(), "a", "k", "fp", func(ctx context.Context) (idempotency.Response, error) {
		tx, err := pgstore.Tx(ctx)
		require.NoError(t, err)
		assert.ErrorContains(t, tx.Commit(ctx), "belongs to the idempotent operation")
		assert.ErrorContains(t, tx.Rollback(ctx), "belongs to the idempotent operation")
		again, err := pgstore.Tx(ctx)
		require.NoError(t, err)
		assert.Equal(t, tx.Conn(), again.Conn(), "one transaction per phase")
		return created(`{}`), nil
	})
	require.NoError(t, err)
}

// Round trips per keyed request, counted at the driver: every store call is one statement.
func TestRoundTrips(t *testing.T) {
	e := newEnv(t)
	createBusinessTable(t, e)
	r := &idempotency.Runner{Store: e.store}
	ctx := context.Background()
	count := func(fn func()) int64 {
		before := e.queries.n.Load()
		fn()
		return e.queries.n.Load() - before
	}
	do := func(key string, fn idempotency.Func) {
		_, err := r.Do(ctx, "a", key, "fp", fn)
		require.NoError(t, err)
	}
	plain := func(ctx context.Context) (idempotency.Response, error) { return created(`{}`), nil }
	withWrite := func(ctx context.Context) (idempotency.Response, error) {
		return created(`{}`), insertOrder(ctx, "o-"+time.Now().String())
	}

	assert.EqualValues(t, 2, count(func() { do("k1", plain) }), "new key: claim + complete")
	assert.EqualValues(t, 1, count(func() { do("k1", plain) }), "replay: claim")
	assert.EqualValues(t, 6, count(func() { do("k2", withWrite) }), "new key with a write: claim + begin + lock + write + complete + commit")
	assert.EqualValues(t, 2, count(func() {
		do("k3", func(ctx context.Context) (idempotency.Response, error) { return idempotency.Response{Status: 500}, nil })
	}), "not stored: claim + release")
	assert.EqualValues(t, 3, count(func() {
		do("k4", func(ctx context.Context) (idempotency.Response, error) {
			_, err := idempotency.Step(ctx, "s", func(ctx context.Context) (int, error) { return 1, nil })
			return created(`{}`), err
		})
	}), "a step without writes: claim + save step + complete")
	assert.EqualValues(t, 7, count(func() {
		do("k5", func(ctx context.Context) (idempotency.Response, error) {
			_, err := idempotency.Step(ctx, "s", func(ctx context.Context) (int, error) { return 1, insertOrder(ctx, "k5") })
			return created(`{}`), err
		})
	}), "a step with a write: claim + begin + lock + write + save step + commit + complete")
}

// A claim that waits for a concurrent, uncommitted claim of the same key conflicts with a row its
// statement's snapshot cannot see. It must still report the key in progress, not fail.
func TestClaimRacingAnUncommittedClaim(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	req := idempotency.ClaimRequest{Scope: "a", Key: "k", Fingerprint: "fp", Lease: time.Minute, Retention: time.Hour}
	tx, err := e.pool.Begin(ctx)
	require.NoError(t, err)
	defer tx.Rollback(ctx)
	c, err := pgstore.New(tx).Claim(ctx, req) // the other worker's claim, not yet committed
	require.NoError(t, err)
	require.Equal(t, idempotency.Claimed, c.Status)

	done := make(chan idempotency.Claim)
	go func() {
		c, err := e.store.Claim(ctx, req)
		assert.NoError(t, err)
		done <- c
	}()
	time.Sleep(300 * time.Millisecond) // let it block on the conflicting row
	select {
	case <-done:
		t.Fatal("the claim did not wait for the uncommitted one")
	default:
	}
	require.NoError(t, tx.Commit(ctx))
	assert.Equal(t, idempotency.InProgress, (<-done).Status)
}

// isolationConfig makes level the default isolation of the pool's sessions.
func isolationConfig(level string) func(*pgxpool.Config) {
	return func(c *pgxpool.Config) { c.ConnConfig.RuntimeParams["default_transaction_isolation"] = level }
}

// Issue 18.8: a database whose default isolation is REPEATABLE READ or SERIALIZABLE makes
// concurrent statements on one row fail with SQLSTATE 40001; the store must still answer (a
// claim: in progress), never fail. The whole conformance suite runs at both levels.
func TestConformanceUnderStricterIsolation(t *testing.T) {
	for _, level := range []string{"repeatable read", "serializable"} {
		t.Run(strings.ReplaceAll(level, " ", "-"), func(t *testing.T) {
			storetest.Run(t, conformance(t, isolationConfig(level)))
		})
	}
}

// Concurrent claims, extensions and takeovers of one key, on the database's clock, under
// SERIALIZABLE: every claim gets an answer.
func TestConcurrentClaimsUnderSerializable(t *testing.T) {
	e := newEnvWith(t, []func(*pgxpool.Config){isolationConfig("serializable")})
	ctx := context.Background()
	req := idempotency.ClaimRequest{Scope: "a", Key: "k", Fingerprint: "fp", Lease: 20 * time.Millisecond, Retention: time.Hour}
	var wg sync.WaitGroup
	var claimed, inProgress atomic.Int32
	for range 16 {
		wg.Go(func() {
			for range 20 {
				c, err := e.store.Claim(ctx, req)
				if !assert.NoError(t, err) {
					return
				}
				switch c.Status {
				case idempotency.Claimed:
					claimed.Add(1)
					err := e.store.Extend(ctx, c.Lease, 20*time.Millisecond)
					if err != nil {
						assert.ErrorIs(t, err, idempotency.ErrFenced)
					}
				case idempotency.InProgress:
					inProgress.Add(1)
				default:
					t.Errorf("unexpected %v", c.Status)
				}
			}
		})
	}
	wg.Wait()
	assert.Positive(t, claimed.Load())
	assert.Positive(t, inProgress.Load())
}

// A database on schema version 1 (steps and header as jsonb) keeps its recovery points and stored
// responses through the migration to version 2 (bytes).
func TestMigrationToBytesKeepsStepsAndHeaders(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.Pool(t, pgtest.Schema(t))
	ms, err := pgstore.Migrations()
	require.NoError(t, err)
	require.Equal(t, 1, ms[0].Version)
	for _, sql := range []string{
		`CREATE TABLE idempotency_schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
		ms[0].SQL,
		`INSERT INTO idempotency_schema_migrations (version, name) VALUES (1, '0001_init.sql')`,
		`INSERT INTO idempotency_keys (scope, key, fingerprint, state, token, locked_until, steps, created_at, expires_at)
		 VALUES ('a', 'running', 'fp', 'in_progress', nextval('idempotency_fence_seq'), now() - interval '1 s',
		         '{"record": {"id": "p_1", "amount": 1000}, "charge": "ch_1"}', now(), now() + interval '1 h')`,
		`INSERT INTO idempotency_keys (scope, key, fingerprint, state, token, status, header, body, created_at, expires_at, completed_at)
		 VALUES ('a', 'done', 'fp', 'completed', nextval('idempotency_fence_seq'), 201,
		         '{"Content-Type": ["application/json"], "Vary": ["Accept", "Accept-Encoding"]}', '\x7b7d', now(), now() + interval '1 h', now())`,
	} {
		_, err := pool.Exec(ctx, sql)
		require.NoError(t, err, sql)
	}
	s := pgstore.New(pool)
	require.NoError(t, s.Migrate(ctx))

	req := idempotency.ClaimRequest{Scope: "a", Key: "running", Fingerprint: "fp", Lease: time.Minute, Retention: time.Hour}
	c, err := s.Claim(ctx, req)
	require.NoError(t, err)
	require.Equal(t, idempotency.Claimed, c.Status)
	require.Len(t, c.Steps, 2)
	assert.JSONEq(t, `{"id":"p_1","amount":1000}`, string(c.Steps["record"]))
	assert.JSONEq(t, `"ch_1"`, string(c.Steps["charge"]))

	req.Key = "done"
	c, err = s.Claim(ctx, req)
	require.NoError(t, err)
	require.Equal(t, idempotency.Completed, c.Status)
	assert.Equal(t, http.Header{"Content-Type": {"application/json"}, "Vary": {"Accept", "Accept-Encoding"}}, c.Response.Header)
	assert.Equal(t, "{}", string(c.Response.Body))
}

// Many processes starting at once on a fresh schema, whatever the database's default isolation:
// each Migrate must see what the one before it committed (issue 27.4: under REPEATABLE READ the
// snapshot predated the lock, and the first migration ran again).
func TestMigrateConcurrentlyAtEveryIsolationLevel(t *testing.T) {
	for _, level := range []string{"read committed", "repeatable read", "serializable"} {
		t.Run(strings.ReplaceAll(level, " ", "-"), func(t *testing.T) {
			pool := pgtest.Pool(t, pgtest.Schema(t), isolationConfig(level), func(c *pgxpool.Config) { c.MaxConns = 30 })
			s := pgstore.New(pool)
			var wg sync.WaitGroup
			var failed atomic.Int32
			for range 30 {
				wg.Go(func() {
					if err := s.Migrate(context.Background()); err != nil {
						failed.Add(1)
						t.Log(err)
					}
				})
			}
			wg.Wait()
			assert.Zero(t, failed.Load(), "of 30 simultaneous starts")
		})
	}
}

var isolationLevels = []string{"read committed", "repeatable read", "serializable"}

// A phase whose transaction outlives several heartbeats, at every isolation level: the heartbeat
// must not break the phase's transaction (issue 27.1: under REPEATABLE READ and SERIALIZABLE the
// heartbeat's update of the key's row made the phase fail with 40001, so any operation longer
// than a heartbeat answered 503 and repeated its work on every attempt).
func TestLongPhaseOutlivesHeartbeatsAtEveryIsolationLevel(t *testing.T) {
	for _, level := range isolationLevels {
		t.Run(strings.ReplaceAll(level, " ", "-"), func(t *testing.T) {
			e := newEnvWith(t, []func(*pgxpool.Config){isolationConfig(level)})
			createBusinessTable(t, e)
			r := &idempotency.Runner{Store: e.store, Lease: 600 * time.Millisecond, Heartbeat: 50 * time.Millisecond}
			ctx := context.Background()

			out, err := r.Do(ctx, "a", "final", "fp", func(ctx context.Context) (idempotency.Response, error) {
				if err := insertOrder(ctx, "final"); err != nil {
					return idempotency.Response{}, err
				}
				time.Sleep(300 * time.Millisecond)
				return created(`{}`), nil
			})
			require.NoError(t, err, "the final phase's transaction")
			assert.True(t, out.Stored)

			out, err = r.Do(ctx, "a", "step", "fp", func(ctx context.Context) (idempotency.Response, error) {
				_, err := idempotency.Step(ctx, "s", func(ctx context.Context) (int, error) {
					time.Sleep(150 * time.Millisecond) // beats before the transaction, and during it
					if err := insertOrder(ctx, "step"); err != nil {
						return 0, err
					}
					time.Sleep(300 * time.Millisecond)
					return 1, nil
				})
				if err != nil {
					return idempotency.Response{}, err
				}
				time.Sleep(150 * time.Millisecond) // the heartbeat goes on after the step
				return created(`{}`), nil
			})
			require.NoError(t, err, "a step's transaction")
			assert.True(t, out.Stored)
			assert.Equal(t, []string{"final", "step"}, orders(t, e))
		})
	}
}

// While a phase's transaction holds the key past its lease, no other worker takes the key over:
// a concurrent attempt waits for it, then gets the stored response; it never runs the work.
func TestNoTakeoverWhileAPhaseHoldsTheKey(t *testing.T) {
	for _, level := range isolationLevels {
		t.Run(strings.ReplaceAll(level, " ", "-"), func(t *testing.T) {
			e := newEnvWith(t, []func(*pgxpool.Config){isolationConfig(level)})
			createBusinessTable(t, e)
			r := &idempotency.Runner{Store: e.store, Lease: 300 * time.Millisecond, Heartbeat: 100 * time.Millisecond}
			ctx := context.Background()
			inTx := make(chan struct{})
			var runs atomic.Int32
			second := make(chan error, 1)
			go func() {
				<-inTx
				time.Sleep(500 * time.Millisecond) // past the lease as renewed before the transaction
				out, err := r.Do(ctx, "a", "k", "fp", func(ctx context.Context) (idempotency.Response, error) {
					runs.Add(1)
					return created(`"second"`), nil
				})
				if err == nil && !out.Replayed {
					err = errors.New("the second attempt did not get the stored response")
				}
				if errors.Is(err, idempotency.ErrInProgress) {
					err = nil
				}
				second <- err
			}()
			out, err := r.Do(ctx, "a", "k", "fp", func(ctx context.Context) (idempotency.Response, error) {
				runs.Add(1)
				if err := insertOrder(ctx, "o"); err != nil {
					return idempotency.Response{}, err
				}
				close(inTx)
				time.Sleep(900 * time.Millisecond)
				return created(`"first"`), nil
			})
			require.NoError(t, err)
			assert.True(t, out.Stored)
			require.NoError(t, <-second)
			assert.EqualValues(t, 1, runs.Load(), "the work ran once")
		})
	}
}

// The final phase's transaction holds the key's row until the operation ends, so a step cannot
// record its result after it has begun: Step says so at once, instead of waiting for itself.
func TestStepAfterTheFinalTransactionIsRefused(t *testing.T) {
	e := newEnv(t)
	createBusinessTable(t, e)
	r := &idempotency.Runner{Store: e.store, StoreTimeout: 2 * time.Second}
	start := time.Now()
	_, err := r.Do(context.Background(), "a", "k", "fp", func(ctx context.Context) (idempotency.Response, error) {
		if err := insertOrder(ctx, "final"); err != nil {
			return idempotency.Response{}, err
		}
		_, err := idempotency.Step(ctx, "late", func(ctx context.Context) (int, error) { return 1, nil })
		return idempotency.Response{}, err
	})
	require.ErrorContains(t, err, "final phase")
	assert.Less(t, time.Since(start), time.Second, "refused at once")
	assert.Empty(t, orders(t, e))
}

// BeginTx is a store call like the others: bounded by StoreTimeout, also when the pool has no
// connection to give (issue 27.3: it waited for as long as the context allowed, and behind the
// middleware, which detaches the work from the client, for ever).
func TestBeginTxIsBoundedByStoreTimeout(t *testing.T) {
	e := newEnvWith(t, []func(*pgxpool.Config){func(c *pgxpool.Config) { c.MaxConns = 1 }})
	createBusinessTable(t, e)
	r := &idempotency.Runner{Store: e.store, StoreTimeout: 200 * time.Millisecond}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var began time.Duration
	_, err := r.Do(ctx, "a", "k", "fp", func(ctx context.Context) (idempotency.Response, error) {
		conn, err := e.pool.Acquire(ctx) // the pool's only connection, taken by other work
		require.NoError(t, err)
		defer conn.Release()
		start := time.Now()
		_, err = pgstore.Tx(ctx)
		began = time.Since(start)
		return idempotency.Response{}, err
	})
	require.ErrorIs(t, err, idempotency.ErrStoreUnavailable)
	assert.Less(t, began, time.Second, "BeginTx waited %v against a StoreTimeout of 200ms", began)
}
