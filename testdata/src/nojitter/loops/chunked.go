package loops

import (
	"math/rand/v2"
	"net"
	"sync/atomic"
	"time"
)

// A wait helper that sleeps in short steps so that a stop is noticed: it waits the whole
// delay it is given, and the delay is jittered.

const (
	maxRefreshShift = 9
	maxRefreshDelay = time.Second
)

func fastRand(n int) int { return rand.IntN(n) }

// refreshDelay is equal jitter on a doubling base.
func refreshDelay(attempts int) time.Duration {
	base := 1 << min(maxRefreshShift, attempts)
	jitter := fastRand(base)
	return min(maxRefreshDelay, time.Duration(base+jitter)*time.Millisecond)
}

type topology struct {
	stop    uint32
	refresh func() error
}

// waitBeforeRetry sleeps for d in steps of 20ms, returning early once stopped.
func (t *topology) waitBeforeRetry(d time.Duration) {
	const step = 20 * time.Millisecond
	for d > 0 && atomic.LoadUint32(&t.stop) == 0 {
		s := min(step, d)
		time.Sleep(s)
		d -= s
	}
}

// refreshRetry refreshes until it succeeds, the topology is stopped, or ten attempts failed:
// its wait is jittered (equal jitter), not reported.
func (t *topology) refreshRetry() {
	for attempts := 0; attempts < 10 && atomic.LoadUint32(&t.stop) == 0; attempts++ {
		if err := t.refresh(); err == nil {
			return
		}
		t.waitBeforeRetry(refreshDelay(attempts))
	}
}

// Close stops the refresh loops.
func (t *topology) Close() { atomic.StoreUint32(&t.stop, 1) }

// reconnectRetry waits a fixed half second through the same helper: reported.
func (t *topology) reconnectRetry(dial func() error) {
	for attempt := 0; attempt < 10 && atomic.LoadUint32(&t.stop) == 0; attempt++ {
		if err := dial(); err == nil {
			return
		}
		t.waitBeforeRetry(500 * time.Millisecond) // related "chunked.go:58: retry loop" // want `retry loop waits a fixed 500ms between attempts, so clients that failed together retry together; add jitter`
	}
}

// redial hands reconnectRetry a dial of the seed: its fixed wait, above, retries a remote
// dependency.
func (t *topology) redial(addr string) {
	t.reconnectRetry(func() error {
		conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			return err
		}
		return conn.Close()
	})
}
