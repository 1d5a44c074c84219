// Package watchdog re-arms a heartbeat watchdog (time.AfterFunc) on the way round its retry
// loop: resetting that timer schedules the watchdog and returns at once, no wait. The loop's
// only wait is jittered.
package watchdog

import (
	"context"
	"errors"
	"log"
	"math/rand/v2"
	"net"
	"sync"
	"time"
)

type puller struct {
	addr string
	hb   time.Duration
}

func (p *puller) Connect(ctx context.Context) (net.Conn, error) { // want Connect:`retries: retry loop at watchdog.go:40, attempts=5` Connect:`waits: jittered`
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var mu sync.Mutex
	var hbErr error
	var hbTimer *time.Timer
	rearm := func() {
		if hbTimer == nil {
			hbTimer = time.AfterFunc(2*p.hb, func() {
				mu.Lock()
				hbErr = errors.New("no heartbeat")
				mu.Unlock()
				cancel()
			})
			return
		}
		hbTimer.Reset(2 * p.hb)
	}
	var d net.Dialer
	for attempt := 0; attempt < 5; attempt++ { // want `retry loop: attempts=5 wait=jittered deadline=context`
		conn, err := d.DialContext(ctx, "tcp", p.addr)
		if err == nil {
			return conn, nil
		}
		log.Printf("connect %s: %v", p.addr, err)
		rearm()
		time.Sleep(rand.N(time.Second))
	}
	mu.Lock()
	defer mu.Unlock()
	return nil, hbErr
}
