package loops

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math"
	"net"
	"time"
)

// A log forwarder that reconnects on a timer: the first attempt runs at once (a timer of
// zero), later ones after a wait that grows by half each time, capped. The wait grows; it
// has no jitter.

type forwarder struct {
	addr         string
	conn         net.Conn
	maxRetry     int
	retryWaitMs  float64
	maxRetryWait float64
}

// pow is the growth factor of the i-th wait.
func pow(base float64, i int) float64 { return math.Pow(base, float64(i)) }

func (f *forwarder) connect(ctx context.Context) error {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", f.addr)
	if err != nil {
		return fmt.Errorf("dial %s: %w", f.addr, err)
	}
	f.conn = conn
	return nil
}

func (f *forwarder) connectWithRetry(ctx context.Context) error {
	timer := time.NewTimer(0)
	defer func() { timer.Stop() }()
	for i := 0; i < f.maxRetry; i++ {
		select {
		case <-timer.C:
			err := f.connect(ctx)
			if err == nil {
				return nil
			}
			if errors.Is(err, context.Canceled) {
				return err
			}
			wait := f.retryWaitMs * pow(1.5, i)
			if wait > f.maxRetryWait {
				wait = f.maxRetryWait
			}
			log.Printf("connect to %s failed (attempt %d), next in %.0fms: %v", f.addr, i+1, wait, err)
			timer = time.NewTimer(time.Duration(wait) * time.Millisecond) // related "timerloop.go:41: retry loop" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return fmt.Errorf("could not connect to %s after %d attempts", f.addr, f.maxRetry)
}
