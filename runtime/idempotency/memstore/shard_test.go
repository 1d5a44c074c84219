package memstore

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/idemlint/idemlint/runtime/idempotency"
)

// Keys whose hashes collide are chained: each is found, and each removed alone; a removed
// record's slot is used again.
func TestShardHashCollisions(t *testing.T) {
	sh := &shard{index: make(map[uint64]int32), free: none, oldest: none, newest: none}
	keys := []string{"k", "l", "m", "n"}
	slots := make([]int32, len(keys))
	for i, k := range keys {
		slots[i] = sh.add(42)
		sh.records.at(slots[i]).identify("a", k, "fp")
	}
	for i, k := range keys {
		if got := sh.get(42, "a", k); got != slots[i] {
			t.Fatalf("get %s: %d, want %d", k, got, slots[i])
		}
	}
	sh.remove(slots[2]) // in the middle of the chain
	sh.remove(slots[3]) // its head
	if sh.get(42, "a", "m") != none || sh.get(42, "a", "n") != none {
		t.Fatal("removed records are still found")
	}
	if sh.get(42, "a", "k") != slots[0] || sh.get(42, "a", "l") != slots[1] || sh.n != 2 {
		t.Fatal("the others must stay")
	}
	if i := sh.add(7); i != slots[3] && i != slots[2] || sh.records.n != int32(len(keys)) {
		t.Fatalf("a new record takes slot %d of %d, not a free one", i, sh.records.n)
	}
	sh.remove(slots[1])
	sh.remove(slots[0])
	if len(sh.index) != 1 || sh.n != 1 {
		t.Fatalf("%d entries, n %d left", len(sh.index), sh.n)
	}
}

// After a reap that leaves a shard mostly empty, its slots are compacted: the memory of a burst
// of keys is given back, and the records kept are still found, with their hash chains and the
// order of eviction.
func TestReapCompactsTheSlots(t *testing.T) {
	now := time.Unix(1000, 0)
	s := New(WithShards(1), WithClock(func() time.Time { return now }))
	ctx := context.Background()
	claim := func(key string, retention time.Duration) idempotency.Lease {
		c, err := s.Claim(ctx, idempotency.ClaimRequest{Scope: "a", Key: key, Fingerprint: "fp", Lease: retention, Retention: retention})
		if err != nil || c.Status != idempotency.Claimed {
			t.Fatalf("claim %s: %v %v", key, c.Status, err)
		}
		return c.Lease
	}
	const n = 4000
	for i := range n {
		retention := time.Hour
		if i%100 == 0 {
			retention = 24 * time.Hour // kept
		}
		if err := s.Complete(ctx, claim(strconv.Itoa(i), retention), idempotency.Response{Status: 201, Body: []byte(strconv.Itoa(i))}); err != nil {
			t.Fatal(err)
		}
	}
	inProgress := claim("running", 24*time.Hour) // a live lease
	sh := &s.shards[0]
	now = now.Add(2 * time.Hour)
	reaped, err := s.Reap(ctx)
	if err != nil || reaped != n-n/100 {
		t.Fatalf("reaped %d, %v", reaped, err)
	}
	if sh.records.n > 2*(n/100+1) || sh.free != none {
		t.Fatalf("%d slots for %d records (free list %d): not compacted", sh.records.n, sh.n, sh.free)
	}
	for i := 0; i < n; i += 100 {
		c, err := s.Claim(ctx, idempotency.ClaimRequest{Scope: "a", Key: strconv.Itoa(i), Fingerprint: "fp", Lease: time.Minute, Retention: time.Hour})
		if err != nil || c.Status != idempotency.Completed || string(c.Response.Body) != strconv.Itoa(i) {
			t.Fatalf("key %d after compaction: %v %v", i, c.Status, err)
		}
	}
	if err := s.Complete(ctx, inProgress, idempotency.Response{Status: 201}); err != nil {
		t.Fatalf("the claim in progress is still held: %v", err)
	}
	var order []string
	for i := sh.oldest; i != none; i = sh.records.at(i).next {
		order = append(order, sh.records.at(i).key())
	}
	if len(order) != n/100+1 || order[0] != "0" || order[1] != "100" || order[len(order)-1] != "running" {
		t.Fatalf("completed list after compaction: %v", order)
	}
}
