package memstore_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/idempotency/memstore"
	"github.com/idemlint/idemlint/runtime/idempotency/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T, now func() time.Time) idempotency.Store {
		return memstore.New(memstore.WithClock(now))
	})
}

var ctx = context.Background()

func claim(t *testing.T, s *memstore.Store, key string) idempotency.Claim {
	t.Helper()
	c, err := s.Claim(ctx, idempotency.ClaimRequest{Scope: "a", Key: key, Fingerprint: "fp", Lease: time.Minute, Retention: time.Hour})
	require.NoError(t, err)
	return c
}

func complete(t *testing.T, s *memstore.Store, key string) {
	t.Helper()
	c := claim(t, s, key)
	require.Equal(t, idempotency.Claimed, c.Status, key)
	require.NoError(t, s.Complete(ctx, c.Lease, idempotency.Response{Status: 201, Body: []byte(key)}))
}

// Issue 19.3: the store is bounded. When it is full, a new key evicts the oldest completed record;
// a record in progress is never evicted, and with nothing to evict a claim fails (503) rather
// than grow the store.
func TestMaxRecordsEvictsTheOldestCompletedFirst(t *testing.T) {
	clock := storetest.NewClock()
	s := memstore.New(memstore.WithClock(clock.Now), memstore.WithMaxRecords(3), memstore.WithShards(1))
	complete(t, s, "done-1")
	clock.Advance(time.Second)
	running := claim(t, s, "running")
	require.Equal(t, idempotency.Claimed, running.Status)
	complete(t, s, "done-2")
	assert.Equal(t, 3, s.Len())

	complete(t, s, "new-1") // full: done-1, the oldest completed, goes
	assert.Equal(t, 3, s.Len())
	assert.EqualValues(t, 1, s.Evicted())
	assert.Equal(t, idempotency.Completed, claim(t, s, "done-2").Status)
	assert.Equal(t, idempotency.InProgress, claim(t, s, "running").Status, "in progress: never evicted")

	complete(t, s, "new-2") // done-2 goes
	assert.Equal(t, idempotency.Completed, claim(t, s, "new-1").Status)
	c := claim(t, s, "done-1") // evicted: new again; it evicts new-1
	assert.Equal(t, idempotency.Claimed, c.Status)
	assert.Equal(t, idempotency.Completed, claim(t, s, "new-2").Status)

	// Now: running and done-1 in progress, new-2 completed. Two more in progress fill it.
	_, err := s.Claim(ctx, idempotency.ClaimRequest{Scope: "a", Key: "x", Fingerprint: "fp", Lease: time.Minute, Retention: time.Hour})
	require.NoError(t, err) // evicts new-2
	_, err = s.Claim(ctx, idempotency.ClaimRequest{Scope: "a", Key: "y", Fingerprint: "fp", Lease: time.Minute, Retention: time.Hour})
	assert.ErrorIs(t, err, memstore.ErrFull, "every record in progress: nothing may be evicted")
	assert.Equal(t, 3, s.Len())

	// Expired records make room before anything live is touched.
	clock.Advance(2 * time.Hour)
	assert.Equal(t, idempotency.Claimed, claim(t, s, "y").Status)
}

// WithMaxRecords(math.MaxInt), "no bound", is not an overflow that refuses every key.
func TestMaxRecordsMaxInt(t *testing.T) {
	s := memstore.New(memstore.WithMaxRecords(math.MaxInt))
	for i := range 100 {
		complete(t, s, fmt.Sprint("k", i))
	}
	assert.Equal(t, 100, s.Len())
}

func TestMaxRecordsBoundsEveryShard(t *testing.T) {
	s := memstore.New(memstore.WithMaxRecords(1024))
	for i := range 10_000 {
		complete(t, s, fmt.Sprint("k", i))
	}
	assert.LessOrEqual(t, s.Len(), 1024)
	assert.Greater(t, s.Len(), 900, "the shards fill evenly")
	assert.EqualValues(t, 10_000-s.Len(), s.Evicted())
	// The newest records are kept.
	kept := 0
	for i := 9_900; i < 10_000; i++ {
		if claim(t, s, fmt.Sprint("k", i)).Status == idempotency.Completed {
			kept++
		}
	}
	assert.Equal(t, 100, kept)
}

// Issue 19.3: Reap does not stop the store. Before, it held the only mutex for its whole scan
// (74 ms for 500k records): a claim during a reap waited for all of it.
func TestClaimsGoOnDuringAReap(t *testing.T) {
	clock := storetest.NewClock()
	s := memstore.New(memstore.WithClock(clock.Now))
	const n = 200_000
	for i := range n {
		c, err := s.Claim(ctx, idempotency.ClaimRequest{Scope: "a", Key: strconv.Itoa(i), Fingerprint: "fp", Lease: time.Minute, Retention: time.Hour})
		require.NoError(t, err)
		require.NoError(t, s.Complete(ctx, c.Lease, idempotency.Response{Status: 201}))
	}
	clock.Advance(2 * time.Hour)

	var reapTook time.Duration
	var took []time.Duration // of the claims made during the reap
	started, reaped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(reaped)
		start := time.Now()
		close(started)
		got, err := s.Reap(ctx)
		reapTook = time.Since(start)
		assert.NoError(t, err)
		assert.Equal(t, n, got)
	}()
	<-started
	for i := 0; ; i++ {
		select {
		case <-reaped:
			require.NotEmpty(t, took, "no claim during the reap")
			slices.Sort(took)
			t.Logf("reap of %d records: %v; %d claims meanwhile, median %v, slowest %v", n, reapTook, len(took), took[len(took)/2], took[len(took)-1])
			// Waiting for the whole reap, there would be one claim, as slow as the reap. (The
			// slowest claim says little on a loaded machine: the reap is fast enough now for a
			// descheduled thread or a collection to take as long.)
			assert.GreaterOrEqual(t, len(took), 10, "claims go on during a reap")
			assert.Less(t, took[len(took)/2], reapTook/4, "a claim waits for one shard's share of the reap at most")
			return
		default:
		}
		start := time.Now()
		claim(t, s, "live-"+strconv.Itoa(i))
		took = append(took, time.Since(start))
	}
}

// A claim held until released (idempotency.UntilReleased, what Runner asks of a LocalStore) does
// not lapse however far the time goes, and the sums of times do not overflow.
func TestClaimHeldUntilReleased(t *testing.T) {
	clock := storetest.NewClock()
	s := memstore.New(memstore.WithClock(clock.Now))
	// A retention of an hour: only the held claim keeps the record from Reap.
	req := idempotency.ClaimRequest{Scope: "a", Key: "k", Fingerprint: "fp", Lease: idempotency.UntilReleased, Retention: time.Hour}
	c, err := s.Claim(ctx, req)
	require.NoError(t, err)
	require.Equal(t, idempotency.Claimed, c.Status)
	clock.Advance(100 * 365 * 24 * time.Hour)
	again, err := s.Claim(ctx, req)
	require.NoError(t, err)
	assert.Equal(t, idempotency.InProgress, again.Status)
	n, err := s.Reap(ctx)
	require.NoError(t, err)
	assert.Zero(t, n)
	require.NoError(t, s.Extend(ctx, c.Lease, idempotency.UntilReleased))
	require.NoError(t, s.Complete(ctx, c.Lease, idempotency.Response{Status: 201}))
	again, err = s.Claim(ctx, req)
	require.NoError(t, err)
	assert.Equal(t, idempotency.Completed, again.Status)
}

// The store is bounded in bytes too (issue 27): completed records are evicted, oldest first, to
// make room, and a response larger than a shard's share cannot be stored.
func TestMaxBytes(t *testing.T) {
	s := memstore.New(memstore.WithShards(1), memstore.WithMaxBytes(10<<10))
	body := make([]byte, 3<<10)
	for i := range 10 {
		c := claim(t, s, strconv.Itoa(i))
		require.Equal(t, idempotency.Claimed, c.Status)
		require.NoError(t, s.Complete(ctx, c.Lease, idempotency.Response{Status: 201, Body: body}))
	}
	assert.LessOrEqual(t, s.Bytes(), int64(10<<10))
	assert.Equal(t, 3, s.Len(), "three responses of 3 KiB fit in 10 KiB")
	assert.EqualValues(t, 7, s.Evicted())
	assert.Equal(t, idempotency.Completed, claim(t, s, "9").Status, "the newest stay")

	c := claim(t, s, "huge")
	err := s.Complete(ctx, c.Lease, idempotency.Response{Status: 201, Body: make([]byte, 11<<10)})
	assert.ErrorIs(t, err, idempotency.ErrResponseTooLarge)
	assert.ErrorIs(t, err, memstore.ErrTooLarge)
	require.NoError(t, s.Release(ctx, c.Lease))
}
