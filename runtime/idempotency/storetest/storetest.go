// Package storetest is the conformance suite for idempotency.Store implementations. Every store
// of this module runs it from its tests, and a third-party store can too:
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, func(t *testing.T, now func() time.Time) idempotency.Store {
//			return mystore.New(..., mystore.WithClock(now))
//		})
//	}
//
// The suite drives time through the clock it passes to the factory, so lease and key expiry are
// tested without sleeping. It covers claims, replays, fingerprint mismatches, concurrent claims,
// lease expiry and takeover, fencing of stale workers, never-reused tokens, recovery points,
// release, retention and reaping (never of a live lease), tenant isolation, exact round trips of
// step results and header values (any bytes), and (through idempotency.Do) the outcomes that
// must not be stored and the scopes and keys that are rejected. Stores that implement
// idempotency.TxStore also get transaction tests. The tests run one at a time.
package storetest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/idemlint/idemlint/runtime/idempotency"
)

// Factory returns a new, empty store that reads the time from now. It is called once per test.
type Factory func(t *testing.T, now func() time.Time) idempotency.Store

// Clock is a manual clock for tests. Its times have microsecond precision, as in PostgreSQL.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a clock set to a fixed instant.
func NewClock() *Clock {
	return &Clock{now: time.Date(2031, 3, 14, 15, 9, 26, 535897000, time.UTC)}
}

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

const (
	lease     = 10 * time.Second
	retention = time.Hour
)

type env struct {
	t     *testing.T
	ctx   context.Context
	clock *Clock
	store idempotency.Store
}

func newEnv(t *testing.T, factory Factory) *env {
	clock := NewClock()
	return &env{t: t, ctx: context.Background(), clock: clock, store: factory(t, clock.Now)}
}

func (e *env) claim(scope, key, fp string) idempotency.Claim {
	e.t.Helper()
	c, err := e.store.Claim(e.ctx, idempotency.ClaimRequest{Scope: scope, Key: key, Fingerprint: fp, Lease: lease, Retention: retention})
	require.NoError(e.t, err)
	return c
}

func (e *env) mustClaim(scope, key, fp string) idempotency.Lease {
	e.t.Helper()
	c := e.claim(scope, key, fp)
	require.Equal(e.t, idempotency.Claimed, c.Status, "claim of %s/%s", scope, key)
	require.Equal(e.t, scope, c.Lease.Scope)
	require.Equal(e.t, key, c.Lease.Key)
	require.NotZero(e.t, c.Lease.Token)
	return c.Lease
}

func (e *env) runner() *idempotency.Runner {
	return &idempotency.Runner{Store: e.store, Lease: lease, Retention: retention, Heartbeat: -1}
}

func resp(status int, body string) idempotency.Response {
	return idempotency.Response{
		Status: status,
		Header: http.Header{"Content-Type": {"application/json"}},
		Body:   []byte(body),
	}
}

// Run runs the conformance suite against the stores that newStore makes.
func Run(t *testing.T, newStore Factory) {
	tests := []struct {
		name string
		fn   func(*testing.T, *env)
	}{
		{"NewKeyIsClaimed", testNewKeyIsClaimed},
		{"InProgressWhileLeaseRuns", testInProgress},
		{"CompletedIsReplayedExactly", testReplayExact},
		{"EmptyResponse", testEmptyResponse},
		{"FingerprintMismatch", testMismatch},
		{"ConcurrentClaimsHaveOneWinner", testConcurrentClaims},
		{"ConcurrentClaimsAfterCompletionReplay", testConcurrentReplays},
		{"LeaseExpiryAllowsTakeover", testTakeover},
		{"StaleWorkerIsFenced", testFencing},
		{"StaleWorkerCannotCompleteFirst", testFencingBeforeWinnerCompletes},
		{"TokensAreNeverReused", testTokensNeverReused},
		{"ExtendKeepsTheLease", testExtend},
		{"CompleteTwiceIsFenced", testCompleteTwice},
		{"StepsSurviveTakeover", testStepsSurviveTakeover},
		{"ReleaseWithoutStepsForgetsTheKey", testReleaseWithoutSteps},
		{"ReleaseWithStepsResumesAtOnce", testReleaseWithSteps},
		{"KeysExpireAfterRetention", testRetention},
		{"ReapDeletesExpiredRecords", testReap},
		{"TenantsAreIsolated", testTenantIsolation},
		{"LiveLeaseOutlivesRetention", testLiveLeaseOutlivesRetention},
		{"StepResultsRoundTripExactly", testStepResultsRoundTrip},
		{"HeaderBytesRoundTripExactly", testHeaderBytesRoundTrip},
		{"DoRejectsMalformedScopesKeysAndFingerprints", testDoRejectsMalformedInput},
		{"DoStoresFinalOutcomes", testDoStoresFinalOutcomes},
		{"DoStoresSeeOther", testDoStoresSeeOther},
		{"DoResponseTooLarge", testDoResponseTooLarge},
		{"DoDoesNotStoreTransientOutcomes", testDoNotStored},
		{"DoDoesNotStoreRejectionsBeforeStart", testDoRejectionBeforeStartIsNotStored},
		{"DoReleasesOnError", testDoError},
		{"DoReleasesOnPanic", testDoPanic},
		{"DoReleasesOnCancel", testDoCancel},
		{"DoInProgressAndMismatch", testDoInProgressMismatch},
		{"DoResumesAfterLastStep", testDoSteps},
		{"DoStaleWorkerResultIsDiscarded", testDoFenced},
		{"MiddlewareTrailers", testMiddlewareTrailers},
		{"MiddlewareSuppressedContentType", testMiddlewareSuppressedContentType},
		{"MiddlewareResponseTooLarge", testMiddlewareResponseTooLarge},
		{"TxRollbackDiscardsWrites", testTxRollback},
		{"TxCommitAppliesWrites", testTxCommit},
		{"TxIsFenced", testTxFenced},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.fn(t, newEnv(t, newStore))
		})
	}
}

func testNewKeyIsClaimed(t *testing.T, e *env) {
	c := e.claim("tenant-a", "k1", "fp1")
	require.Equal(t, idempotency.Claimed, c.Status)
	assert.Equal(t, idempotency.Lease{Scope: "tenant-a", Key: "k1", Token: c.Lease.Token}, c.Lease)
	assert.Positive(t, c.Lease.Token)
	assert.Empty(t, c.Steps)
	assert.Nil(t, c.Response)
}

func testInProgress(t *testing.T, e *env) {
	e.mustClaim("a", "k", "fp")
	e.clock.Advance(lease - time.Millisecond)
	c := e.claim("a", "k", "fp")
	require.Equal(t, idempotency.InProgress, c.Status)
	assert.WithinDuration(t, e.clock.Now().Add(time.Millisecond), c.LockedUntil, time.Millisecond)
	assert.Zero(t, c.Lease)
}

func testReplayExact(t *testing.T, e *env) {
	l := e.mustClaim("a", "k", "fp")
	body := []byte("{\"id\":\"p_1\"}\x00\xff\xfe binary tail\n")
	want := idempotency.Response{
		Status: http.StatusCreated,
		Header: http.Header{
			"Content-Type": {"application/json"},
			"Location":     {"/v1/payments/p_1"},
			"Etag":         {`"abc"`},
			"X-Multi":      {"one", "two"},
		},
		Body: body,
	}
	require.NoError(t, e.store.Complete(e.ctx, l, want.Clone()))
	for range 2 {
		c := e.claim("a", "k", "fp")
		require.Equal(t, idempotency.Completed, c.Status)
		require.NotNil(t, c.Response)
		assert.Equal(t, want.Status, c.Response.Status)
		assert.Equal(t, want.Header, c.Response.Header)
		assert.Equal(t, body, c.Response.Body, "body must be byte-identical")
		// The caller owns what it gets: changing it must not change the stored response.
		c.Response.Body[0] = 'X'
		c.Response.Header.Set("Content-Type", "text/plain")
	}
}

func testEmptyResponse(t *testing.T, e *env) {
	l := e.mustClaim("a", "k", "fp")
	require.NoError(t, e.store.Complete(e.ctx, l, idempotency.Response{Status: http.StatusNoContent}))
	c := e.claim("a", "k", "fp")
	require.Equal(t, idempotency.Completed, c.Status)
	assert.Equal(t, http.StatusNoContent, c.Response.Status)
	assert.Empty(t, c.Response.Body)
	assert.Empty(t, c.Response.Header)
}

func testMismatch(t *testing.T, e *env) {
	// In progress.
	l := e.mustClaim("a", "k", "fp1")
	assert.Equal(t, idempotency.Mismatch, e.claim("a", "k", "fp2").Status)
	// In progress with its lease over: still bound to its fingerprint.
	require.NoError(t, e.store.SaveStep(e.ctx, l, "s", json.RawMessage(`1`)))
	e.clock.Advance(lease)
	assert.Equal(t, idempotency.Mismatch, e.claim("a", "k", "fp2").Status)
	// Completed.
	l = e.mustClaim("a", "k", "fp1")
	require.NoError(t, e.store.Complete(e.ctx, l, resp(201, `{}`)))
	c := e.claim("a", "k", "fp2")
	assert.Equal(t, idempotency.Mismatch, c.Status)
	assert.Nil(t, c.Response, "a mismatching request must not see the stored response")
}

func testConcurrentClaims(t *testing.T, e *env) {
	const n = 50
	var claimed, inProgress atomic.Int32
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range n {
		wg.Go(func() {
			<-start
			c, err := e.store.Claim(e.ctx, idempotency.ClaimRequest{Scope: "a", Key: "race", Fingerprint: "fp", Lease: lease, Retention: retention})
			if !assert.NoError(t, err) {
				return
			}
			switch c.Status {
			case idempotency.Claimed:
				claimed.Add(1)
			case idempotency.InProgress:
				inProgress.Add(1)
			default:
				t.Errorf("unexpected status %v", c.Status)
			}
		})
	}
	close(start)
	wg.Wait()
	assert.EqualValues(t, 1, claimed.Load(), "exactly one claim must win")
	assert.EqualValues(t, n-1, inProgress.Load())
}

func testConcurrentReplays(t *testing.T, e *env) {
	l := e.mustClaim("a", "k", "fp")
	require.NoError(t, e.store.Complete(e.ctx, l, resp(201, `{"ok":true}`)))
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			c, err := e.store.Claim(e.ctx, idempotency.ClaimRequest{Scope: "a", Key: "k", Fingerprint: "fp", Lease: lease, Retention: retention})
			if assert.NoError(t, err) && assert.Equal(t, idempotency.Completed, c.Status) {
				assert.Equal(t, `{"ok":true}`, string(c.Response.Body))
			}
		})
	}
	wg.Wait()
}

func testTakeover(t *testing.T, e *env) {
	first := e.mustClaim("a", "k", "fp")
	e.clock.Advance(lease - time.Millisecond)
	assert.Equal(t, idempotency.InProgress, e.claim("a", "k", "fp").Status)
	e.clock.Advance(time.Millisecond)
	second := e.mustClaim("a", "k", "fp")
	assert.Greater(t, second.Token, first.Token, "a takeover must increase the fencing token")
	// The new lease runs from the takeover.
	assert.Equal(t, idempotency.InProgress, e.claim("a", "k", "fp").Status)
}

func testFencing(t *testing.T, e *env) {
	stale := e.mustClaim("a", "k", "fp")
	e.clock.Advance(lease + time.Second)
	winner := e.mustClaim("a", "k", "fp")
	require.NoError(t, e.store.Complete(e.ctx, winner, resp(201, `"winner"`)))

	assert.ErrorIs(t, e.store.Complete(e.ctx, stale, resp(201, `"stale"`)), idempotency.ErrFenced)
	assert.ErrorIs(t, e.store.SaveStep(e.ctx, stale, "s", json.RawMessage(`1`)), idempotency.ErrFenced)
	assert.ErrorIs(t, e.store.Extend(e.ctx, stale, lease), idempotency.ErrFenced)
	assert.ErrorIs(t, e.store.Release(e.ctx, stale), idempotency.ErrFenced)

	c := e.claim("a", "k", "fp")
	require.Equal(t, idempotency.Completed, c.Status)
	assert.Equal(t, `"winner"`, string(c.Response.Body))
}

func testFencingBeforeWinnerCompletes(t *testing.T, e *env) {
	stale := e.mustClaim("a", "k", "fp")
	e.clock.Advance(lease)
	winner := e.mustClaim("a", "k", "fp")
	require.ErrorIs(t, e.store.Complete(e.ctx, stale, resp(201, `"stale"`)), idempotency.ErrFenced)
	require.ErrorIs(t, e.store.Release(e.ctx, stale), idempotency.ErrFenced)
	// The winner's claim is untouched: still in progress, and it can still finish.
	assert.Equal(t, idempotency.InProgress, e.claim("a", "k", "fp").Status)
	require.NoError(t, e.store.SaveStep(e.ctx, winner, "s", json.RawMessage(`2`)))
	require.NoError(t, e.store.Complete(e.ctx, winner, resp(201, `"winner"`)))
	c := e.claim("a", "k", "fp")
	require.Equal(t, idempotency.Completed, c.Status)
	assert.Equal(t, `"winner"`, string(c.Response.Body))
}

func testTokensNeverReused(t *testing.T, e *env) {
	first := e.mustClaim("a", "k", "fp")
	require.NoError(t, e.store.Release(e.ctx, first)) // no steps: the record is gone
	second := e.mustClaim("a", "k", "fp")
	assert.Greater(t, second.Token, first.Token)
	assert.ErrorIs(t, e.store.Complete(e.ctx, first, resp(201, `"old"`)), idempotency.ErrFenced,
		"a token from before a release must not act on the new claim")

	// The same across expiry (the record is replaced).
	e.clock.Advance(retention)
	third := e.mustClaim("a", "k", "fp")
	assert.Greater(t, third.Token, second.Token)
	assert.ErrorIs(t, e.store.Complete(e.ctx, second, resp(201, `"old"`)), idempotency.ErrFenced)
	// Tokens of different keys do not interfere either.
	other := e.mustClaim("a", "other", "fp")
	assert.NotEqual(t, third.Token, other.Token)
	assert.ErrorIs(t, e.store.Complete(e.ctx, idempotency.Lease{Scope: "a", Key: "other", Token: third.Token}, resp(201, `"x"`)), idempotency.ErrFenced)
}

func testExtend(t *testing.T, e *env) {
	l := e.mustClaim("a", "k", "fp")
	e.clock.Advance(lease - time.Second)
	require.NoError(t, e.store.Extend(e.ctx, l, lease))
	e.clock.Advance(lease - time.Millisecond) // past the original lease
	c := e.claim("a", "k", "fp")
	require.Equal(t, idempotency.InProgress, c.Status)
	assert.WithinDuration(t, e.clock.Now().Add(time.Millisecond), c.LockedUntil, time.Millisecond)
	e.clock.Advance(time.Millisecond)
	assert.Equal(t, idempotency.Claimed, e.claim("a", "k", "fp").Status)
}

func testCompleteTwice(t *testing.T, e *env) {
	l := e.mustClaim("a", "k", "fp")
	require.NoError(t, e.store.Complete(e.ctx, l, resp(201, `"first"`)))
	assert.ErrorIs(t, e.store.Complete(e.ctx, l, resp(201, `"second"`)), idempotency.ErrFenced)
	assert.ErrorIs(t, e.store.Release(e.ctx, l), idempotency.ErrFenced)
	assert.ErrorIs(t, e.store.SaveStep(e.ctx, l, "s", json.RawMessage(`1`)), idempotency.ErrFenced)
	c := e.claim("a", "k", "fp")
	require.Equal(t, idempotency.Completed, c.Status)
	assert.Equal(t, `"first"`, string(c.Response.Body))
}

func testStepsSurviveTakeover(t *testing.T, e *env) {
	l := e.mustClaim("a", "k", "fp")
	require.NoError(t, e.store.SaveStep(e.ctx, l, "record", json.RawMessage(`{"id":"p_1","amount":1000}`)))
	require.NoError(t, e.store.SaveStep(e.ctx, l, "charge", json.RawMessage(`"ch_1"`)))
	e.clock.Advance(lease)
	c := e.claim("a", "k", "fp")
	require.Equal(t, idempotency.Claimed, c.Status)
	require.Len(t, c.Steps, 2)
	assert.JSONEq(t, `{"id":"p_1","amount":1000}`, string(c.Steps["record"]))
	assert.JSONEq(t, `"ch_1"`, string(c.Steps["charge"]))
	// A step recorded again (by the new worker) replaces the old value.
	require.NoError(t, e.store.SaveStep(e.ctx, c.Lease, "charge", json.RawMessage(`"ch_2"`)))
	e.clock.Advance(lease)
	c = e.claim("a", "k", "fp")
	require.Equal(t, idempotency.Claimed, c.Status)
	assert.JSONEq(t, `"ch_2"`, string(c.Steps["charge"]))
}

func testReleaseWithoutSteps(t *testing.T, e *env) {
	l := e.mustClaim("a", "k", "fp1")
	require.NoError(t, e.store.Release(e.ctx, l))
	// The key is as good as new: even another request may use it, at once.
	c := e.claim("a", "k", "fp2")
	require.Equal(t, idempotency.Claimed, c.Status)
	assert.Empty(t, c.Steps)
}

func testReleaseWithSteps(t *testing.T, e *env) {
	l := e.mustClaim("a", "k", "fp")
	require.NoError(t, e.store.SaveStep(e.ctx, l, "record", json.RawMessage(`"p_1"`)))
	require.NoError(t, e.store.Release(e.ctx, l))
	assert.Equal(t, idempotency.Mismatch, e.claim("a", "k", "other").Status,
		"a key with recorded steps stays bound to its request")
	c := e.claim("a", "k", "fp") // no waiting for the lease
	require.Equal(t, idempotency.Claimed, c.Status)
	assert.Greater(t, c.Lease.Token, l.Token)
	assert.JSONEq(t, `"p_1"`, string(c.Steps["record"]))
}

func testRetention(t *testing.T, e *env) {
	l := e.mustClaim("a", "k", "fp1")
	require.NoError(t, e.store.Complete(e.ctx, l, resp(201, `"old"`)))
	e.clock.Advance(retention - time.Millisecond)
	assert.Equal(t, idempotency.Completed, e.claim("a", "k", "fp1").Status)
	e.clock.Advance(time.Millisecond)
	c := e.claim("a", "k", "fp2")
	require.Equal(t, idempotency.Claimed, c.Status, "an expired key is new again, for any request")
	assert.Empty(t, c.Steps)

	// An abandoned in-progress record with steps expires too, steps and all.
	l = e.mustClaim("a", "k2", "fp")
	require.NoError(t, e.store.SaveStep(e.ctx, l, "s", json.RawMessage(`1`)))
	e.clock.Advance(retention)
	c = e.claim("a", "k2", "fp-new")
	require.Equal(t, idempotency.Claimed, c.Status)
	assert.Empty(t, c.Steps)
}

func testReap(t *testing.T, e *env) {
	l := e.mustClaim("a", "old-done", "fp")
	require.NoError(t, e.store.Complete(e.ctx, l, resp(201, `"old"`)))
	e.mustClaim("a", "old-abandoned", "fp")
	e.clock.Advance(retention / 2)
	l = e.mustClaim("a", "young", "fp")
	require.NoError(t, e.store.Complete(e.ctx, l, resp(201, `"young"`)))

	n, err := e.store.Reap(e.ctx)
	require.NoError(t, err)
	assert.Equal(t, 0, n, "nothing has expired yet")

	e.clock.Advance(retention / 2)
	n, err = e.store.Reap(e.ctx)
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	n, err = e.store.Reap(e.ctx)
	require.NoError(t, err)
	assert.Equal(t, 0, n)

	c := e.claim("a", "young", "fp")
	require.Equal(t, idempotency.Completed, c.Status)
	assert.Equal(t, `"young"`, string(c.Response.Body))
	assert.Equal(t, idempotency.Claimed, e.claim("a", "old-done", "other").Status)
}

func testTenantIsolation(t *testing.T, e *env) {
	la := e.mustClaim("tenant-a", "shared-key", "fp")
	require.NoError(t, e.store.Complete(e.ctx, la, resp(201, `"a's secret"`)))

	// Same key and request in another tenant: a new key there, never a's response.
	cb := e.claim("tenant-b", "shared-key", "fp")
	require.Equal(t, idempotency.Claimed, cb.Status)
	assert.Nil(t, cb.Response)
	// b's lease cannot act on a's record and vice versa.
	assert.ErrorIs(t, e.store.Complete(e.ctx, idempotency.Lease{Scope: "tenant-a", Key: "shared-key", Token: cb.Lease.Token}, resp(201, `"b"`)), idempotency.ErrFenced)
	require.NoError(t, e.store.Complete(e.ctx, cb.Lease, resp(201, `"b's"`)))

	assert.Equal(t, `"a's secret"`, string(e.claim("tenant-a", "shared-key", "fp").Response.Body))
	assert.Equal(t, `"b's"`, string(e.claim("tenant-b", "shared-key", "fp").Response.Body))
	// A different fingerprint in a third tenant is not a mismatch.
	assert.Equal(t, idempotency.Claimed, e.claim("tenant-c", "shared-key", "other").Status)
	// Scopes and keys are compared exactly, without any normalisation.
	assert.Equal(t, idempotency.Claimed, e.claim("Tenant-A", "shared-key", "fp").Status)
	assert.Equal(t, idempotency.Claimed, e.claim("tenant-a", "Shared-Key", "fp").Status)
}

// A record whose lease is live (renewed by a heartbeat) is never expired or reaped, even past its
// retention window: a second worker would run the same request concurrently. Once completed, the
// response is kept for a full retention window after completion.
func testLiveLeaseOutlivesRetention(t *testing.T, e *env) {
	l := e.mustClaim("a", "slow", "fp")
	require.NoError(t, e.store.SaveStep(e.ctx, l, "s", json.RawMessage(`1`)))
	for elapsed := time.Duration(0); elapsed < retention+lease; elapsed += lease / 2 {
		e.clock.Advance(lease / 2)
		require.NoError(t, e.store.Extend(e.ctx, l, lease))
	}
	c := e.claim("a", "slow", "fp")
	require.Equal(t, idempotency.InProgress, c.Status, "a live lease past retention must not be taken over")
	assert.Equal(t, idempotency.Mismatch, e.claim("a", "slow", "other").Status, "nor replaced by another request")
	n, err := e.store.Reap(e.ctx)
	require.NoError(t, err)
	assert.Zero(t, n, "a live lease must not be reaped")

	require.NoError(t, e.store.Complete(e.ctx, l, resp(201, `"slow"`)))
	e.clock.Advance(retention - time.Millisecond)
	c = e.claim("a", "slow", "fp")
	require.Equal(t, idempotency.Completed, c.Status, "a late completion is kept for a full retention window")
	assert.Equal(t, `"slow"`, string(c.Response.Body))
	e.clock.Advance(time.Millisecond)
	n, err = e.store.Reap(e.ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, n)

	// A lease that lapsed (a crashed worker) past retention is expired as before.
	e.mustClaim("a", "crashed", "fp")
	e.clock.Advance(retention)
	assert.Equal(t, idempotency.Claimed, e.claim("a", "crashed", "other").Status)
}

// Step results are opaque bytes to a store: whatever a store is given comes back unchanged,
// including what PostgreSQL's jsonb refuses (\u0000) and bytes that are not JSON at all.
func testStepResultsRoundTrip(t *testing.T, e *env) {
	results := map[string]json.RawMessage{
		"nul-escape":  json.RawMessage(`{"memo":"a\u0000b"}`),
		"nul-byte":    json.RawMessage("\"a\x00b\""),
		"not-utf8":    json.RawMessage("\"\xff\xfe\""),
		"not-json":    json.RawMessage("{not json"),
		"spacing":     json.RawMessage(`{ "b" : 1,  "a":2 }`),
		"empty":       json.RawMessage{},
		"big":         json.RawMessage(`"` + strings.Repeat("x", 1<<16) + `"`),
		"name \u00e9": json.RawMessage(`1`),
	}
	l := e.mustClaim("a", "k", "fp")
	for name, r := range results {
		require.NoError(t, e.store.SaveStep(e.ctx, l, name, r), name)
	}
	e.clock.Advance(lease)
	c := e.claim("a", "k", "fp")
	require.Equal(t, idempotency.Claimed, c.Status)
	require.Len(t, c.Steps, len(results))
	for name, r := range results {
		assert.Equal(t, string(r), string(c.Steps[name]), "step %q must come back byte for byte", name)
	}

	// Through Do and Step: a result with a NUL is recorded, and a retry does not repeat the step.
	var runs atomic.Int32
	fail := true
	work := func(ctx context.Context) (idempotency.Response, error) {
		v, err := idempotency.Step(ctx, "memo", func(context.Context) (string, error) {
			runs.Add(1)
			return "line\x00with nul", nil
		})
		if err != nil {
			return idempotency.Response{}, err
		}
		if fail {
			return resp(503, `"later"`), nil
		}
		return resp(201, fmt.Sprintf("%q", v)), nil
	}
	r := e.runner()
	out, err := r.Do(e.ctx, "a", "memo", "fp", work)
	require.NoError(t, err)
	require.Equal(t, 503, out.Response.Status)
	fail = false
	out, err = r.Do(e.ctx, "a", "memo", "fp", work)
	require.NoError(t, err)
	require.True(t, out.Stored)
	assert.Equal(t, `"line\x00with nul"`, string(out.Response.Body))
	assert.EqualValues(t, 1, runs.Load(), "the recorded step must not run again")
}

// Header values are bytes: they come back as they were stored, even when they are not UTF-8.
func testHeaderBytesRoundTrip(t *testing.T, e *env) {
	l := e.mustClaim("a", "k", "fp")
	want := idempotency.Response{
		Status: http.StatusOK,
		Header: http.Header{
			"Content-Disposition": {"attachment; filename=\"r\xe9sum\xe9.pdf\""},
			"X-Raw":               {"\xff\xfe", "", "a\x00b"},
		},
		Body: []byte("ok"),
	}
	require.NoError(t, e.store.Complete(e.ctx, l, want.Clone()))
	c := e.claim("a", "k", "fp")
	require.Equal(t, idempotency.Completed, c.Status)
	assert.Equal(t, want.Header, c.Response.Header)
}

// Do rejects a scope, key or fingerprint that is not text, the same way on every store, before
// claiming (a raw digest used to work on memstore and fail on pgstore as a store outage).
func testDoRejectsMalformedInput(t *testing.T, e *env) {
	r := e.runner()
	never := func(context.Context) (idempotency.Response, error) {
		t.Error("the work must not run")
		return idempotency.Response{}, nil
	}
	for _, scope := range []string{"", "a\x00", "\xff", "a\nb", strings.Repeat("s", 256)} {
		_, err := r.Do(e.ctx, scope, "k", "fp", never)
		var se *idempotency.ScopeError
		assert.ErrorAs(t, err, &se, "scope %q", scope)
		assert.NotErrorIs(t, err, idempotency.ErrStoreUnavailable)
	}
	for _, key := range []string{"", "k\x00", "\xff", strings.Repeat("k", 256)} {
		_, err := r.Do(e.ctx, "a", key, "fp", never)
		var ke *idempotency.KeyError
		assert.ErrorAs(t, err, &ke, "key %q", key)
	}
	digest := sha256.Sum256([]byte("a body"))
	for _, fp := range []string{string(digest[:]), "fp\x00", "", strings.Repeat("f", idempotency.MaxFingerprintLen+1)} {
		_, err := r.Do(e.ctx, "a", "k", fp, never)
		var fe *idempotency.FingerprintError
		assert.ErrorAs(t, err, &fe, "fingerprint %q", fp)
		assert.NotErrorIs(t, err, idempotency.ErrStoreUnavailable)
	}
	out, err := r.Do(e.ctx, "Zürich", "ключ-1", "fp", (&counter{}).fn(201, `"ok"`))
	require.NoError(t, err)
	assert.True(t, out.Stored, "UTF-8 scopes and keys are fine")
	out, err = r.Do(e.ctx, "a", "hex", hex.EncodeToString(digest[:]), (&counter{}).fn(201, `"ok"`))
	require.NoError(t, err)
	assert.True(t, out.Stored, "a hex digest is a fingerprint")
}

// counter counts the calls of a Func.
type counter struct{ n atomic.Int32 }

func (c *counter) fn(status int, body string) idempotency.Func {
	return func(ctx context.Context) (idempotency.Response, error) {
		c.n.Add(1)
		return resp(status, body), nil
	}
}

// started is c.fn for work that has started executing (so that a 4xx is its outcome).
func (c *counter) started(status int, body string) idempotency.Func {
	return func(ctx context.Context) (idempotency.Response, error) {
		if err := idempotency.MarkStarted(ctx); err != nil {
			return idempotency.Response{}, err
		}
		return c.fn(status, body)(ctx)
	}
}

func testDoStoresFinalOutcomes(t *testing.T, e *env) {
	r := e.runner()
	for _, status := range []int{200, 201, 204, 400, 404, 422} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			var c counter
			key := fmt.Sprint("k", status)
			out, err := r.Do(e.ctx, "a", key, "fp", c.started(status, `"first"`))
			require.NoError(t, err)
			assert.True(t, out.Stored)
			assert.False(t, out.Replayed)
			out, err = r.Do(e.ctx, "a", key, "fp", c.fn(status, `"second"`))
			require.NoError(t, err)
			assert.True(t, out.Replayed)
			assert.Equal(t, status, out.Response.Status)
			assert.Equal(t, `"first"`, string(out.Response.Body))
			assert.EqualValues(t, 1, c.n.Load())
		})
	}
}

// A 303 See Other (post/redirect/get) says that the request was processed and where its result
// is: a final outcome, stored and replayed with its Location, whether or not the work marked its
// start (issue 27: it released the key, and a retry ran the handler again).
func testDoStoresSeeOther(t *testing.T, e *env) {
	r := e.runner()
	var c counter
	seeOther := func(ctx context.Context) (idempotency.Response, error) {
		c.n.Add(1)
		return idempotency.Response{Status: http.StatusSeeOther, Header: http.Header{"Location": {"/v1/orders/1"}}}, nil
	}
	out, err := r.Do(e.ctx, "a", "prg", "fp", seeOther)
	require.NoError(t, err)
	assert.True(t, out.Stored)
	out, err = r.Do(e.ctx, "a", "prg", "fp", seeOther)
	require.NoError(t, err)
	require.True(t, out.Replayed, "a retry gets the redirect, the work does not run again")
	assert.Equal(t, http.StatusSeeOther, out.Response.Status)
	assert.Equal(t, "/v1/orders/1", out.Response.Header.Get("Location"))
	assert.EqualValues(t, 1, c.n.Load())
}

// A response larger than Runner.MaxResponseBytes cannot be stored: Do says so
// (ErrResponseTooLarge), stores nothing and releases the key, on every store.
func testDoResponseTooLarge(t *testing.T, e *env) {
	r := e.runner()
	r.MaxResponseBytes = 1 << 10
	var c counter
	_, err := r.Do(e.ctx, "a", "big", "fp", c.fn(201, strings.Repeat("x", 2<<10)))
	var tooLarge *idempotency.ResponseTooLargeError
	require.ErrorAs(t, err, &tooLarge)
	assert.ErrorIs(t, err, idempotency.ErrResponseTooLarge)
	assert.NotErrorIs(t, err, idempotency.ErrStoreUnavailable)
	assert.Equal(t, int64(1<<10), tooLarge.Limit)
	assert.Greater(t, tooLarge.Size, int64(2<<10))
	out, err := r.Do(e.ctx, "a", "big", "fp", c.fn(201, `"small"`))
	require.NoError(t, err)
	assert.True(t, out.Stored, "the key was released")
	assert.EqualValues(t, 2, c.n.Load())
}

// A 4xx from work that never started executing (it rejected the request, as validation does) is
// not stored: the key is released, so that the client can fix its request and keep its key.
func testDoRejectionBeforeStartIsNotStored(t *testing.T, e *env) {
	r := e.runner()
	for _, status := range []int{400, 404, 422} {
		var c counter
		key := fmt.Sprint("k", status)
		out, err := r.Do(e.ctx, "a", key, "fp", c.fn(status, `"rejected"`))
		require.NoError(t, err)
		assert.False(t, out.Stored, "%d before execution", status)
		assert.Equal(t, status, out.Response.Status)
		out, err = r.Do(e.ctx, "a", key, "fixed", c.fn(201, `"ok"`))
		require.NoError(t, err)
		assert.True(t, out.Stored, "the key is free for the corrected request")
		assert.EqualValues(t, 2, c.n.Load())
	}
	// A step counts as the start of execution.
	out, err := r.Do(e.ctx, "a", "after-step", "fp", func(ctx context.Context) (idempotency.Response, error) {
		if _, err := idempotency.Step(ctx, "s", func(context.Context) (int, error) { return 1, nil }); err != nil {
			return idempotency.Response{}, err
		}
		return resp(402, `"declined"`), nil
	})
	require.NoError(t, err)
	assert.True(t, out.Stored)
}

func testDoNotStored(t *testing.T, e *env) {
	r := e.runner()
	for _, status := range []int{500, 502, 503, 504, 429, 408, 409, 301, 302, 307, 308} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			var c counter
			key := fmt.Sprint("k", status)
			out, err := r.Do(e.ctx, "a", key, "fp", c.fn(status, `"transient"`))
			require.NoError(t, err)
			assert.False(t, out.Stored)
			assert.Equal(t, status, out.Response.Status, "the response is still returned")
			// The key was released: a retry runs again, at once, and may succeed.
			out, err = r.Do(e.ctx, "a", key, "fp", c.fn(201, `"ok"`))
			require.NoError(t, err)
			assert.True(t, out.Stored)
			assert.EqualValues(t, 2, c.n.Load())
			out, err = r.Do(e.ctx, "a", key, "fp", c.fn(201, `"again"`))
			require.NoError(t, err)
			assert.True(t, out.Replayed)
			assert.Equal(t, `"ok"`, string(out.Response.Body), "a transient response must never be replayed")
		})
	}
}

func testDoError(t *testing.T, e *env) {
	r := e.runner()
	boom := errors.New("boom")
	_, err := r.Do(e.ctx, "a", "k", "fp", func(ctx context.Context) (idempotency.Response, error) {
		return idempotency.Response{}, boom
	})
	require.ErrorIs(t, err, boom)
	assert.Equal(t, idempotency.Claimed, e.claim("a", "k", "other").Status, "an error must release the key")
}

func testDoPanic(t *testing.T, e *env) {
	r := e.runner()
	assert.PanicsWithValue(t, "handler bug", func() {
		r.Do(e.ctx, "a", "k", "fp", func(ctx context.Context) (idempotency.Response, error) {
			panic("handler bug")
		})
	})
	assert.Equal(t, idempotency.Claimed, e.claim("a", "k", "fp").Status, "a panic must release the key")
}

func testDoCancel(t *testing.T, e *env) {
	r := e.runner()
	ctx, cancel := context.WithCancel(e.ctx)
	out, err := r.Do(ctx, "a", "k", "fp", func(ctx context.Context) (idempotency.Response, error) {
		cancel() // the client goes away while the work runs
		return resp(201, `"done"`), nil
	})
	require.ErrorIs(t, err, context.Canceled)
	assert.False(t, out.Stored)
	assert.Equal(t, idempotency.Claimed, e.claim("a", "k", "fp").Status, "a cancelled request must release the key")
}

func testDoInProgressMismatch(t *testing.T, e *env) {
	r := e.runner()
	out, err := r.Do(e.ctx, "a", "k", "fp", func(ctx context.Context) (idempotency.Response, error) {
		_, err := r.Do(e.ctx, "a", "k", "fp", (&counter{}).fn(201, `"dup"`))
		var ip *idempotency.InProgressError
		if assert.ErrorAs(t, err, &ip) {
			assert.ErrorIs(t, err, idempotency.ErrInProgress)
			assert.GreaterOrEqual(t, ip.RetryAfter, time.Second)
		}
		_, err = r.Do(e.ctx, "a", "k", "other", (&counter{}).fn(201, `"dup"`))
		assert.ErrorIs(t, err, idempotency.ErrMismatch)
		return resp(201, `"one"`), nil
	})
	require.NoError(t, err)
	require.True(t, out.Stored)
	_, err = r.Do(e.ctx, "a", "k", "other", (&counter{}).fn(201, `"dup"`))
	assert.ErrorIs(t, err, idempotency.ErrMismatch)
}

func testDoSteps(t *testing.T, e *env) {
	r := e.runner()
	var recorded, charged atomic.Int32
	fail := true
	work := func(ctx context.Context) (idempotency.Response, error) {
		id, err := idempotency.Step(ctx, "record", func(ctx context.Context) (string, error) {
			recorded.Add(1)
			return "p_1", nil
		})
		if err != nil {
			return idempotency.Response{}, err
		}
		ch, err := idempotency.Step(ctx, "charge", func(ctx context.Context) (map[string]any, error) {
			charged.Add(1)
			if fail {
				return nil, errors.New("provider timeout")
			}
			return map[string]any{"charge": "ch_1", "payment": id}, nil
		})
		if err != nil {
			return resp(502, `"provider failed"`), nil
		}
		return resp(201, fmt.Sprintf(`{"id":%q,"charge":%q}`, id, ch["charge"])), nil
	}
	out, err := r.Do(e.ctx, "a", "k", "fp", work)
	require.NoError(t, err)
	assert.Equal(t, 502, out.Response.Status)
	assert.False(t, out.Stored)

	fail = false
	out, err = r.Do(e.ctx, "a", "k", "fp", work) // resumes at once: the 502 released the key
	require.NoError(t, err)
	require.True(t, out.Stored)
	assert.JSONEq(t, `{"id":"p_1","charge":"ch_1"}`, string(out.Response.Body))
	assert.EqualValues(t, 1, recorded.Load(), "the recorded step must not run again")
	assert.EqualValues(t, 2, charged.Load())

	out, err = r.Do(e.ctx, "a", "k", "fp", work)
	require.NoError(t, err)
	assert.True(t, out.Replayed)
	assert.EqualValues(t, 1, recorded.Load())
	assert.EqualValues(t, 2, charged.Load())
}

func testDoFenced(t *testing.T, e *env) {
	r := e.runner()
	_, err := r.Do(e.ctx, "a", "k", "fp", func(ctx context.Context) (idempotency.Response, error) {
		// This worker stalls past its lease, and another one takes over and finishes.
		e.clock.Advance(lease + time.Second)
		out, err := r.Do(e.ctx, "a", "k", "fp", (&counter{}).fn(201, `"winner"`))
		require.NoError(t, err)
		require.True(t, out.Stored)
		return resp(201, `"stale"`), nil
	})
	require.ErrorIs(t, err, idempotency.ErrFenced)
	c := e.claim("a", "k", "fp")
	require.Equal(t, idempotency.Completed, c.Status)
	assert.Equal(t, `"winner"`, string(c.Response.Body))

	// A stale worker's step is not recorded either.
	_, err = r.Do(e.ctx, "a", "k2", "fp", func(ctx context.Context) (idempotency.Response, error) {
		e.clock.Advance(lease + time.Second)
		e.mustClaim("a", "k2", "fp")
		_, err := idempotency.Step(ctx, "s", func(ctx context.Context) (int, error) { return 1, nil })
		assert.ErrorIs(t, err, idempotency.ErrFenced)
		return idempotency.Response{}, err
	})
	require.ErrorIs(t, err, idempotency.ErrFenced)
	e.clock.Advance(lease)
	c = e.claim("a", "k2", "fp")
	require.Equal(t, idempotency.Claimed, c.Status)
	assert.Empty(t, c.Steps)
}

func txStore(t *testing.T, e *env) idempotency.TxStore {
	ts, ok := e.store.(idempotency.TxStore)
	if !ok {
		t.Skip("the store does not implement idempotency.TxStore")
	}
	return ts
}

func testTxRollback(t *testing.T, e *env) {
	ts := txStore(t, e)
	l := e.mustClaim("a", "k", "fp")
	tx, err := ts.BeginTx(e.ctx, l)
	require.NoError(t, err)
	require.NoError(t, tx.SaveStep(e.ctx, l, "s", json.RawMessage(`1`)))
	require.NoError(t, tx.Complete(e.ctx, l, resp(201, `"rolled back"`)))
	require.NoError(t, tx.Rollback(e.ctx))

	assert.Equal(t, idempotency.InProgress, e.claim("a", "k", "fp").Status, "the completion must be rolled back")
	require.NoError(t, e.store.Release(e.ctx, l), "the lease must still be held")
	c := e.claim("a", "k", "fp")
	require.Equal(t, idempotency.Claimed, c.Status)
	assert.Empty(t, c.Steps, "the step must be rolled back")
}

func testTxCommit(t *testing.T, e *env) {
	ts := txStore(t, e)
	l := e.mustClaim("a", "k", "fp")
	tx, err := ts.BeginTx(e.ctx, l)
	require.NoError(t, err)
	require.NoError(t, tx.SaveStep(e.ctx, l, "s", json.RawMessage(`1`)))
	require.NoError(t, tx.Commit(e.ctx))
	e.clock.Advance(lease)
	c := e.claim("a", "k", "fp")
	require.Equal(t, idempotency.Claimed, c.Status)
	assert.JSONEq(t, `1`, string(c.Steps["s"]))

	tx, err = ts.BeginTx(e.ctx, c.Lease)
	require.NoError(t, err)
	require.NoError(t, tx.Complete(e.ctx, c.Lease, resp(201, `"committed"`)))
	require.NoError(t, tx.Commit(e.ctx))
	c = e.claim("a", "k", "fp")
	require.Equal(t, idempotency.Completed, c.Status)
	assert.Equal(t, `"committed"`, string(c.Response.Body))
}

func testTxFenced(t *testing.T, e *env) {
	ts := txStore(t, e)
	stale := e.mustClaim("a", "k", "fp")
	e.clock.Advance(lease)
	winner := e.mustClaim("a", "k", "fp")
	_, err := ts.BeginTx(e.ctx, stale)
	assert.ErrorIs(t, err, idempotency.ErrFenced, "a transaction is begun only for the lease that holds the record")
	tx, err := ts.BeginTx(e.ctx, winner)
	require.NoError(t, err)
	assert.ErrorIs(t, tx.SaveStep(e.ctx, stale, "s", json.RawMessage(`1`)), idempotency.ErrFenced)
	assert.ErrorIs(t, tx.Complete(e.ctx, stale, resp(201, `"stale"`)), idempotency.ErrFenced)
	require.NoError(t, tx.Rollback(e.ctx))
	require.NoError(t, e.store.Complete(e.ctx, winner, resp(201, `"winner"`)))
	assert.Equal(t, `"winner"`, string(e.claim("a", "k", "fp").Response.Body))
}
