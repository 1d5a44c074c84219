package idempotency_test

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/idempotency/memstore"
	"github.com/idemlint/idemlint/runtime/idempotency/storetest"
)

func created(body string) idempotency.Response {
	return idempotency.Response{Status: http.StatusCreated, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(body)}
}

func TestHeartbeatKeepsALiveWorkersLease(t *testing.T) {
	for name, interval := range map[string]time.Duration{"explicit": 30 * time.Millisecond, "default": 0} {
		t.Run(name, func(t *testing.T) {
			store := memstore.New()
			r := &idempotency.Runner{Store: store, Lease: 300 * time.Millisecond, Heartbeat: interval}
			out, err := r.Do(context.Background(), "a", "k", "fp", func(ctx context.Context) (idempotency.Response, error) {
				time.Sleep(800 * time.Millisecond) // well past the lease, but alive
				_, err := r.Do(context.Background(), "a", "k", "fp", func(context.Context) (idempotency.Response, error) {
					t.Error("a live worker's key must not be taken over")
					return created(`"dup"`), nil
				})
				assert.ErrorIs(t, err, idempotency.ErrInProgress)
				return created(`"one"`), nil
			})
			require.NoError(t, err)
			assert.True(t, out.Stored)
		})
	}
}

func TestWithoutHeartbeatASlowWorkerIsTakenOverAndFenced(t *testing.T) {
	store := memstore.New()
	r := &idempotency.Runner{Store: store, Lease: 50 * time.Millisecond, Heartbeat: -1}
	_, err := r.Do(context.Background(), "a", "k", "fp", func(ctx context.Context) (idempotency.Response, error) {
		time.Sleep(100 * time.Millisecond)
		out, err := r.Do(context.Background(), "a", "k", "fp", func(context.Context) (idempotency.Response, error) {
			return created(`"winner"`), nil
		})
		require.NoError(t, err)
		require.True(t, out.Stored)
		return created(`"stale"`), nil
	})
	require.ErrorIs(t, err, idempotency.ErrFenced)
	out, err := r.Do(context.Background(), "a", "k", "fp", nil)
	require.NoError(t, err)
	assert.Equal(t, `"winner"`, string(out.Response.Body))
}

// notLocal hides that a store is an idempotency.LocalStore, so that Runner leases its claims and
// renews them as it does a database's.
type notLocal struct{ idempotency.Store }

func TestHeartbeatCancelsAWorkerThatLostItsLease(t *testing.T) {
	clock := storetest.NewClock()
	store := memstore.New(memstore.WithClock(clock.Now))
	r := &idempotency.Runner{Store: notLocal{store}, Lease: time.Minute, Heartbeat: 10 * time.Millisecond}
	var cause error
	_, err := r.Do(context.Background(), "a", "k", "fp", func(ctx context.Context) (idempotency.Response, error) {
		// The store's time jumps past the lease (a long GC pause, say) and another worker takes over.
		clock.Advance(2 * time.Minute)
		c, err := store.Claim(context.Background(), idempotency.ClaimRequest{Scope: "a", Key: "k", Fingerprint: "fp", Lease: time.Minute, Retention: time.Hour})
		require.NoError(t, err)
		require.Equal(t, idempotency.Claimed, c.Status)
		select {
		case <-ctx.Done():
			cause = context.Cause(ctx)
		case <-time.After(5 * time.Second):
			t.Error("the heartbeat did not notice the lost lease")
		}
		_, err = idempotency.Step(ctx, "charge", func(context.Context) (int, error) {
			t.Error("a worker that lost its lease must not start a step")
			return 0, nil
		})
		assert.ErrorIs(t, err, idempotency.ErrFenced)
		return created(`"stale"`), nil
	})
	require.ErrorIs(t, err, idempotency.ErrFenced)
	assert.ErrorIs(t, cause, idempotency.ErrFenced, "the work's context is cancelled with ErrFenced as the cause")
}

// A LocalStore's claim lives in this process's memory, as its worker does: Runner holds it for as
// long as the work runs, with no lease to renew, so that the store's time jumping past the lease
// (a long pause, a wall clock set forward) cannot let a second worker take a live worker's key.
func TestLocalStoreHoldsTheClaimWhileTheWorkRuns(t *testing.T) {
	clock := storetest.NewClock()
	store := memstore.New(memstore.WithClock(clock.Now))
	r := &idempotency.Runner{Store: store, Lease: time.Minute}
	var claimed idempotency.Claim
	out, err := r.Do(context.Background(), "a", "k", "fp", func(ctx context.Context) (idempotency.Response, error) {
		clock.Advance(48 * time.Hour) // past the lease and the retention, before any heartbeat
		var err error
		claimed, err = store.Claim(context.Background(), idempotency.ClaimRequest{Scope: "a", Key: "k", Fingerprint: "fp", Lease: time.Minute, Retention: time.Hour})
		require.NoError(t, err)
		n, err := store.Reap(context.Background())
		require.NoError(t, err)
		assert.Zero(t, n, "a record held by a running worker is never reaped")
		_, err = idempotency.Step(ctx, "charge", func(context.Context) (int, error) { return 1, nil })
		require.NoError(t, err)
		assert.NoError(t, ctx.Err())
		return created(`"one"`), nil
	})
	require.NoError(t, err)
	assert.True(t, out.Stored)
	assert.Equal(t, idempotency.InProgress, claimed.Status, "a live worker's claim is not taken over")

	// With renewal disabled, the claim is a lease that lapses, as documented.
	r.Heartbeat = -1
	_, err = r.Do(context.Background(), "a", "k2", "fp", func(context.Context) (idempotency.Response, error) {
		clock.Advance(2 * time.Minute)
		c, err := store.Claim(context.Background(), idempotency.ClaimRequest{Scope: "a", Key: "k2", Fingerprint: "fp", Lease: time.Minute, Retention: time.Hour})
		require.NoError(t, err)
		assert.Equal(t, idempotency.Claimed, c.Status)
		return created(`"stale"`), nil
	})
	require.ErrorIs(t, err, idempotency.ErrFenced)
}

func TestStepRules(t *testing.T) {
	r := &idempotency.Runner{Store: memstore.New()}

	// Outside an operation a step just runs.
	v, err := idempotency.Step(context.Background(), "s", func(context.Context) (int, error) { return 7, nil })
	require.NoError(t, err)
	assert.Equal(t, 7, v)

	_, err = r.Do(context.Background(), "a", "k", "fp", func(ctx context.Context) (idempotency.Response, error) {
		_, err := idempotency.Step(ctx, "outer", func(ctx context.Context) (int, error) {
			return idempotency.Step(ctx, "inner", func(context.Context) (int, error) { return 1, nil })
		})
		assert.ErrorContains(t, err, `step "inner" started inside step "outer": steps cannot be nested`)

		_, err = idempotency.Step(ctx, "once", func(context.Context) (int, error) { return 1, nil })
		require.NoError(t, err)
		_, err = idempotency.Step(ctx, "once", func(context.Context) (int, error) { return 2, nil })
		assert.ErrorContains(t, err, `step "once" ran twice in one operation`)

		_, err = idempotency.Step(ctx, "unencodable", func(context.Context) (func(), error) { return func() {}, nil })
		assert.ErrorContains(t, err, `step "unencodable": encoding the result`)
		return created(`{}`), nil
	})
	require.NoError(t, err)
}

// Step returns the recorded value even on the first run, so what follows a step sees the same
// value on every attempt.
func TestStepReturnsTheRecordedValue(t *testing.T) {
	type rec struct {
		ID      string
		private int
		At      time.Time
	}
	store := memstore.New()
	r := &idempotency.Runner{Store: store}
	var first, resumed rec
	fail := true
	work := func(ctx context.Context) (idempotency.Response, error) {
		v, err := idempotency.Step(ctx, "s", func(context.Context) (rec, error) {
			return rec{ID: "x", private: 42, At: time.Now()}, nil
		})
		require.NoError(t, err)
		if fail {
			first = v
			return idempotency.Response{}, errors.New("later failure")
		}
		resumed = v
		return created(`{}`), nil
	}
	_, err := r.Do(context.Background(), "a", "k", "fp", work)
	require.Error(t, err)
	fail = false
	_, err = r.Do(context.Background(), "a", "k", "fp", work)
	require.NoError(t, err)
	assert.Equal(t, first, resumed)
	assert.Zero(t, first.private, "unexported fields are not recorded, on the first run either")
}

func TestDerivedKey(t *testing.T) {
	r := &idempotency.Runner{Store: memstore.New()}
	derive := func(scope, key string) string {
		var got string
		_, err := r.Do(context.Background(), scope, key, "fp", func(ctx context.Context) (idempotency.Response, error) {
			s, k, ok := idempotency.OperationKey(ctx)
			assert.True(t, ok)
			assert.Equal(t, scope, s)
			assert.Equal(t, key, k)
			var err error
			got, err = idempotency.DerivedKey(ctx, "charge")
			require.NoError(t, err)
			return idempotency.Response{Status: 500}, nil // released: the key can be derived again
		})
		require.NoError(t, err)
		return got
	}
	k := derive("tenant-a", "key-1")
	assert.Equal(t, k, derive("tenant-a", "key-1"), "stable across attempts")
	assert.NotEqual(t, k, derive("tenant-b", "key-1"), "tenants never share a downstream key")
	assert.NotEqual(t, k, derive("tenant-a", "key-2"))
	assert.NotEqual(t, derive("ab", "c"), derive("a", "bc"), "scope and key boundaries are unambiguous")
	assert.Regexp(t, `^[0-9a-f]{32}:charge$`, k)

	_, err := idempotency.DerivedKey(context.Background(), "charge")
	assert.ErrorIs(t, err, idempotency.ErrNoOperation)
	_, _, ok := idempotency.OperationKey(context.Background())
	assert.False(t, ok)
}

func TestDoReportsStoreErrors(t *testing.T) {
	store := &faultyStore{Store: memstore.New()}
	store.down.Store(true)
	var ran atomic.Bool
	_, err := idempotency.Do(context.Background(), store, "a", "k", "fp", func(context.Context) (idempotency.Response, error) {
		ran.Store(true)
		return created(`{}`), nil
	})
	var se *idempotency.StoreError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "claim", se.Op)
	assert.ErrorIs(t, err, idempotency.ErrStoreUnavailable)
	assert.ErrorIs(t, err, errDown)
	assert.False(t, ran.Load())
}

func TestDefaultStorable(t *testing.T) {
	for status, want := range map[int]bool{
		200: true, 201: true, 202: true, 204: true, 299: true,
		400: true, 401: true, 403: true, 404: true, 410: true, 422: true,
		303: true,
		100: false, 301: false, 302: false, 304: false, 307: false, 308: false,
		408: false, 409: false, 425: false, 429: false, 499: false,
		500: false, 502: false, 503: false, 504: false,
	} {
		assert.Equal(t, want, idempotency.DefaultStorable(status), "%d", status)
	}
}

func TestRunReaperDeletesExpiredKeys(t *testing.T) {
	clock := storetest.NewClock()
	store := memstore.New(memstore.WithClock(clock.Now))
	r := &idempotency.Runner{Store: store, Retention: time.Hour}
	for _, key := range []string{"k1", "k2"} {
		_, err := r.Do(context.Background(), "a", key, "fp", func(context.Context) (idempotency.Response, error) {
			return created(`{}`), nil
		})
		require.NoError(t, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		idempotency.RunReaper(ctx, store, 5*time.Millisecond, nil)
		close(done)
	}()
	time.Sleep(30 * time.Millisecond)
	assert.Equal(t, 2, store.Len(), "nothing has expired yet")
	clock.Advance(time.Hour)
	assert.Eventually(t, func() bool { return store.Len() == 0 }, 5*time.Second, 5*time.Millisecond)
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("RunReaper did not stop with its context")
	}
}

// Issue 18.1, in real time: work that outlives its key's retention window keeps its key, since
// its heartbeat keeps the lease live; a second request meanwhile is told it is in progress.
// (Before, with a 60 ms lease and a 300 ms retention, the second request took the key over at
// 500 ms and the first worker was fenced.)
func TestLiveWorkOutlivesItsRetention(t *testing.T) {
	// Margins for a loaded machine: a beat may come 160 ms late before the lease lapses.
	r := &idempotency.Runner{Store: memstore.New(), Lease: 200 * time.Millisecond, Heartbeat: 40 * time.Millisecond,
		Retention: 800 * time.Millisecond}
	require.NoError(t, r.Validate())
	var runs atomic.Int32
	work := func(ctx context.Context) (idempotency.Response, error) {
		runs.Add(1)
		time.Sleep(1500 * time.Millisecond)
		return created(`"once"`), nil
	}
	done := make(chan error, 1)
	go func() { _, err := r.Do(context.Background(), "a", "k", "fp", work); done <- err }()
	time.Sleep(1000 * time.Millisecond) // past the retention window, the work still running
	_, err := r.Do(context.Background(), "a", "k", "fp", work)
	assert.ErrorIs(t, err, idempotency.ErrInProgress)
	require.NoError(t, <-done)
	out, err := r.Do(context.Background(), "a", "k", "fp", work)
	require.NoError(t, err)
	assert.True(t, out.Replayed)
	assert.EqualValues(t, 1, runs.Load())
}

// The stored header is the RecordHeaders of the response, under their canonical names, matched
// without regard to case, and without the names that have no values.
func TestRecordedHeaders(t *testing.T) {
	for _, tc := range []struct {
		name   string
		record []string // Runner.RecordHeaders; nil: the default
		header http.Header
		want   http.Header
	}{
		{"all recorded", nil,
			http.Header{"Content-Type": {"application/json"}, "Location": {"/p/1"}},
			http.Header{"Content-Type": {"application/json"}, "Location": {"/p/1"}}},
		{"some recorded", nil,
			http.Header{"Content-Type": {"application/json"}, "X-Request-Id": {"r1"}, "Etag": {`"v1"`, `"v2"`}},
			http.Header{"Content-Type": {"application/json"}, "Etag": {`"v1"`, `"v2"`}}},
		{"none", nil, http.Header{"X-Request-Id": {"r1"}}, nil},
		{"empty", nil, http.Header{}, nil},
		{"no values", nil, http.Header{"Content-Type": {}, "Location": {"/p/1"}}, http.Header{"Location": {"/p/1"}}},
		{"not canonical", nil,
			http.Header{"content-type": {"text/plain"}, "Location": {"/p/1"}},
			http.Header{"Content-Type": {"text/plain"}, "Location": {"/p/1"}}},
		{"names in another case", []string{"x-trace", "LOCATION"},
			http.Header{"X-Trace": {"t"}, "Location": {"/p/1"}, "Content-Type": {"text/plain"}},
			http.Header{"X-Trace": {"t"}, "Location": {"/p/1"}}},
		{"names not canonical, header as given", []string{"x-trace"},
			http.Header{"x-trace": {"t"}},
			http.Header{"X-Trace": {"t"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &idempotency.Runner{Store: memstore.New(), RecordHeaders: tc.record}
			_, err := r.Do(context.Background(), "a", "k", "fp", func(context.Context) (idempotency.Response, error) {
				return idempotency.Response{Status: http.StatusOK, Header: tc.header, Body: []byte("x")}, nil
			})
			require.NoError(t, err)
			out, err := r.Do(context.Background(), "a", "k", "fp", nil)
			require.NoError(t, err)
			require.True(t, out.Replayed)
			assert.Equal(t, tc.want, out.Response.Header)
		})
	}
}
