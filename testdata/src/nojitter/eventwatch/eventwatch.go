// Package eventwatch follows a server's event stream and reconnects when it breaks.
package eventwatch

import (
	"context"
	"log/slog"
	"net"
	"time"

	"github.com/cenkalti/backoff/v4"
)

type Watcher struct {
	addr   string
	log    *slog.Logger
	handle func([]byte)
}

// stream dials the server and reads events until the connection breaks.
func (w *Watcher) stream(ctx context.Context) error {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", w.addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	buf := make([]byte, 4096)
	for {
		n, err := conn.Read(buf)
		if err != nil {
			return err
		}
		w.handle(buf[:n])
	}
}

// Run reconnects after a failure, waiting first at the top of the next round: the failure
// sets the flag that makes it back off. Not reported.
func (w *Watcher) Run(ctx context.Context) {
	retryBackoff := backoff.NewExponentialBackOff()
	shouldBackoff := false
	errorCount := 0
eventLoop:
	for {
		select {
		case <-ctx.Done():
			w.log.Debug("context done, stopping the watcher")
			return
		default:
			if shouldBackoff {
				next := retryBackoff.NextBackOff()
				if next == backoff.Stop {
					w.log.Error("backoff limit reached")
					break eventLoop
				}
				time.Sleep(next)
			}
			err := w.stream(ctx)
			if err != nil {
				errorCount++
				shouldBackoff = true
				w.log.Error("error while watching events", "err", err, "errors", errorCount)
				if errorCount >= 5 {
					break eventLoop
				}
				continue
			}
			errorCount, shouldBackoff = 0, false
			retryBackoff.Reset()
		}
	}
}

// RunEager reconnects at once: reported.
func (w *Watcher) RunEager(ctx context.Context) {
	for { // related "eventwatch.go:76: long-running loop" // want `long-running loop goes round at once when its remote call fails: it spins against a failing dependency`
		select {
		case <-ctx.Done():
			return
		default:
			if err := w.stream(ctx); err != nil {
				w.log.Error("error while watching events", "err", err)
			}
		}
	}
}

// RunPaced waits at the top of a round only after a round that went well (a pause between
// streams), and reconnects at once after a failure: the flag is not the failure's. Reported.
func (w *Watcher) RunPaced(ctx context.Context) {
	paced := false
	for { // related "eventwatch.go:92: long-running loop" // want `long-running loop goes round at once when its remote call fails: it spins against a failing dependency`
		select {
		case <-ctx.Done():
			return
		default:
			if paced {
				time.Sleep(time.Second)
			}
			if err := w.stream(ctx); err != nil {
				w.log.Error("error while watching events", "err", err)
				paced = false
				continue
			}
			paced = true
		}
	}
}
