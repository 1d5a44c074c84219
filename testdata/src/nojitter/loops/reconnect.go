package loops

import (
	"context"
	"errors"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"time"
)

// Long-running loops: they serve or consume until they are stopped, and connect or subscribe
// again when that fails. They never leave on success, so they have no attempt cap to check,
// but a fixed wait before connecting again brings every client of a restarted server back in
// the same instant.

type feed struct {
	addr  string
	quit  chan struct{}
	conns int
}

func (f *feed) serve(ctx context.Context, c net.Conn) error {
	defer c.Close()
	buf := make([]byte, 4096)
	for {
		if _, err := c.Read(buf); err != nil {
			return err
		}
	}
}

func (f *feed) run(ctx context.Context) {
	var d net.Dialer
	for {
		conn, err := d.DialContext(ctx, "tcp", f.addr)
		if err != nil {
			log.Printf("feed %s: dial: %v; again in 5s", f.addr, err)
			timer := time.NewTimer(5 * time.Second) // related "reconnect.go:36: long-running loop" // want `long-running loop waits a fixed 5s between attempts, so clients that failed together retry together; add jitter`
			select {
			case <-ctx.Done():
				timer.Stop()
				return
			case <-f.quit:
				timer.Stop()
				return
			case <-timer.C:
			}
			continue
		}
		f.conns++
		if err := f.serve(ctx, conn); err != nil && !errors.Is(err, net.ErrClosed) {
			log.Printf("feed %s: %v", f.addr, err)
		}
		select {
		case <-ctx.Done():
			return
		default:
		}
	}
}

// The same loop with a randomised wait: nothing to report.
func (f *feed) runJittered(ctx context.Context) {
	var d net.Dialer
	for {
		conn, err := d.DialContext(ctx, "tcp", f.addr)
		if err != nil {
			wait := 2*time.Second + time.Duration(rand.Int64N(int64(3*time.Second)))
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
			continue
		}
		_ = f.serve(ctx, conn)
	}
}

// A poller that waits its interval after each success and backs off on nothing: the
// interval is not a retry's wait.
func (f *feed) poll(ctx context.Context, fetch func(context.Context) (int, error)) {
	ticker := time.NewTicker(time.Minute)
	defer ticker.Stop()
	for {
		n, err := fetch(ctx)
		if err == nil {
			log.Printf("feed %s: %d new items", f.addr, n)
		}
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
	}
}

// A worker loop that waits a second when no slot is free: the only test of an error is the
// context's, which asks whether to stop; nothing remote failed.
type slots struct {
	free   chan int
	stopCh chan struct{}
}

func (s *slots) reserve(ctx context.Context, out chan<- *int) {
	select {
	case n := <-s.free:
		out <- &n
	case <-ctx.Done():
		out <- nil
	}
}

func (s *slots) poll(ctx context.Context, work func(int)) {
	reserved := make(chan *int)
	for {
		go s.reserve(ctx, reserved)
		var slot *int
		select {
		case <-s.stopCh:
			return
		case slot = <-reserved:
		}
		if slot == nil {
			if ctx.Err() == nil {
				time.Sleep(time.Second)
			}
			continue
		}
		work(*slot)
	}
}

// Keeping a lease: extend it every interval until an extension fails or the context ends.
// The timer is reset after a success; a failure leaves.
type lease struct{ interval time.Duration }

func (l *lease) extend(ctx context.Context, key string) error { return ctx.Err() }

func (l *lease) keep(ctx context.Context, key string, closed chan struct{}) error {
	var err error
	for timer := time.NewTimer(l.interval); err == nil; {
		select {
		case <-ctx.Done():
			err = ctx.Err()
		case <-timer.C:
			if err = l.extend(ctx, key); err == nil {
				timer.Reset(l.interval)
			}
		case _, ok := <-closed:
			if !ok {
				err = errors.New("lease: locker closed")
			} else {
				err = l.extend(ctx, key)
			}
		}
	}
	return err
}

// A server's accept loop backs off on temporary errors: this machine's limits, not a
// dependency that clients overwhelm together.
func (f *feed) listen(ctx context.Context, ln net.Listener) error {
	var delay time.Duration
	for {
		conn, err := ln.Accept()
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				if delay == 0 {
					delay = 5 * time.Millisecond
				} else {
					delay = min(2*delay, time.Second)
				}
				timer := time.NewTimer(delay)
				select {
				case <-timer.C:
				case <-f.quit:
					timer.Stop()
					return nil
				}
				continue
			}
			return err
		}
		go f.serve(ctx, conn)
	}
}

// Running a function until it fails, starting again at once when it asks to: Reset(0) is
// no wait.
var errResetBackoff = errors.New("reset backoff")

func runF(ctx context.Context, fn func() error, backoff func(int) time.Duration) {
	attempt := 0
	timer := time.NewTimer(0)
	for ctx.Err() == nil {
		select {
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			return
		}
		err := fn()
		if errors.Is(err, errResetBackoff) {
			timer.Reset(0)
			attempt = 0
			continue
		}
		if err != nil {
			return
		}
		timer.Reset(backoff(attempt))
		attempt++
	}
}

// An API's Accept is a remote call like any other: a loop that accepts invitations as they
// come and waits a fixed time after a failure is reported.
type invitations struct {
	hc   *http.Client
	base string
}

func (i *invitations) Accept(ctx context.Context) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, i.base+"/v1/invitations/next:accept", nil)
	if err != nil {
		return "", err
	}
	resp, err := i.hc.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	return resp.Header.Get("Invitation-Id"), nil
}

func (f *feed) acceptInvites(ctx context.Context, inv *invitations) {
	for {
		id, err := inv.Accept(ctx)
		if err != nil {
			log.Printf("invitations: %v", err)
			select {
			case <-ctx.Done():
				return
			case <-time.After(10 * time.Second): // related "reconnect.go:241: long-running loop" // want `long-running loop waits a fixed 10s between attempts, so clients that failed together retry together; add jitter`
			}
			continue
		}
		log.Printf("accepted invitation %s", id)
	}
}
