package memstore

import "testing"

// Keys whose hashes collide are chained: each is found, and each removed alone.
func TestShardHashCollisions(t *testing.T) {
	sh := &shard{records: make(map[uint64]*record)}
	recs := make([]*record, 4)
	for i := range recs {
		recs[i] = &record{key: recordKey{"a", string(rune('k' + i))}}
		sh.put(42, recs[i])
	}
	for _, r := range recs {
		if got := sh.get(42, r.key); got != r {
			t.Fatalf("get %v: %v", r.key, got)
		}
	}
	sh.remove(recs[2]) // in the middle of the chain
	sh.remove(recs[3]) // its head
	if sh.get(42, recs[2].key) != nil || sh.get(42, recs[3].key) != nil {
		t.Fatal("removed records are still found")
	}
	if sh.get(42, recs[0].key) != recs[0] || sh.get(42, recs[1].key) != recs[1] || sh.n != 2 {
		t.Fatal("the others must stay")
	}
	sh.remove(recs[1])
	sh.remove(recs[0])
	if len(sh.records) != 0 || sh.n != 0 {
		t.Fatalf("%d entries, n %d left", len(sh.records), sh.n)
	}
}
