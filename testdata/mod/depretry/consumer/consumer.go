// Package consumer recovers its link to a broker through a dependency's retry helper.
package consumer

import (
	"context"
	"fmt"
	"log"
	"net"
	"time"

	"example.com/retrylib"
)

type Receiver struct {
	addr string
	conn net.Conn
}

func (r *Receiver) recover(ctx context.Context) error {
	var d net.Dialer
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	conn, err := d.DialContext(dctx, "tcp", r.addr)
	if err != nil {
		return fmt.Errorf("recover %s: %w", r.addr, err)
	}
	r.conn = conn
	return nil
}

// ---- Reported at the call: the helper's loop is in another module ----

func (r *Receiver) Listen(ctx context.Context) error {
	_, err := retrylib.Retry(10, 10*time.Second, func() (any, error) { // related "consumer.go:34: retry callback" // want `retrylib.Retry waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
		if err := r.recover(ctx); err != nil {
			log.Printf("recovering: %v", err)
			return nil, retrylib.Retryable(err.Error())
		}
		return nil, nil
	})
	return err
}
