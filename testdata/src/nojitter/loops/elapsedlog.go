package loops

import (
	"context"
	"fmt"
	"log"
	"math/rand/v2"
	"net"
	"time"
)

// A feed watcher that reconnects to its server. The time it measures only goes into a log
// line: it bounds nothing, so the loop retries for ever. Its twin gives up once the outage
// has lasted five minutes: that time check ends the loop.
type feedWatcher struct {
	addr string
	conn net.Conn
}

func (w *feedWatcher) dial() error {
	d := net.Dialer{Timeout: 10 * time.Second}
	conn, err := d.Dial("tcp", w.addr)
	if err != nil {
		return fmt.Errorf("dial %s: %w", w.addr, err)
	}
	w.conn = conn
	return nil
}

func (w *feedWatcher) Reconnect() {
	lost := time.Now()
	attempts := 0
	for { // related "elapsedlog.go:33: retry loop" // want `retry loop retries for ever \(no attempt cap, no deadline\); count the attempts and stop after a few`
		err := w.dial()
		if err == nil {
			log.Printf("feed: reconnected after %d attempts", attempts)
			return
		}
		attempts++
		log.Printf("feed: reconnect attempt %d, offline for %s: %v", attempts, time.Since(lost), err)
		time.Sleep(time.Second + rand.N(time.Second))
	}
}

func (w *feedWatcher) ReconnectWithin(ctx context.Context) error {
	lost := time.Now()
	for {
		err := w.dial()
		if err == nil {
			return nil
		}
		if time.Since(lost) > 5*time.Minute {
			return fmt.Errorf("feed: offline for %s: %w", time.Since(lost), err)
		}
		time.Sleep(time.Second + rand.N(time.Second))
	}
}
