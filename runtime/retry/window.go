package retry

import "time"

const windowBuckets = 10

// window counts two kinds of events over a sliding time span, in buckets, so that old
// events expire. It is not safe for concurrent use: its owner locks.
type window struct {
	width   int64 // bucket width, in nanoseconds
	buckets [windowBuckets]bucket
}

type bucket struct {
	epoch int64 // time / width when the bucket was last used
	a, b  int64
}

func newWindow(span time.Duration) window {
	return window{width: max(int64(span)/windowBuckets, 1)}
}

func (w *window) add(now time.Time, a, b int64) {
	epoch := now.UnixNano() / w.width
	bk := &w.buckets[uint64(epoch)%windowBuckets]
	if bk.epoch != epoch {
		*bk = bucket{epoch: epoch}
	}
	bk.a += a
	bk.b += b
}

// sum returns the totals of the buckets still inside the span.
func (w *window) sum(now time.Time) (a, b int64) {
	epoch := now.UnixNano() / w.width
	for i := range w.buckets {
		bk := &w.buckets[i]
		if bk.epoch > epoch-windowBuckets && bk.epoch <= epoch {
			a += bk.a
			b += bk.b
		}
	}
	return a, b
}

func (w *window) reset() { w.buckets = [windowBuckets]bucket{} }
