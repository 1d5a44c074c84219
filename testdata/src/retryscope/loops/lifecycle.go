package loops

import (
	"context"
	"errors"
	"log"
	"sync"
	"sync/atomic"
	"time"
)

// Lifecycle loops: they keep working after each success and stop only when they are told to.
// Their error handling backs off, but the loop is the component's life, not a retry of one
// operation (a retry leaves once the operation succeeds).

type member struct {
	ctx      context.Context
	quit     chan struct{}
	interval time.Duration
	errs     int
}

var errFenced = errors.New("fenced")

func (m *member) heartbeat(ctx context.Context) (time.Duration, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	return m.interval, nil
}

func (m *member) rejoin() {}

func (m *member) backoff(n int) time.Duration { return time.Duration(n) * 100 * time.Millisecond }

func retryableErr(err error) bool { return !errors.Is(err, errFenced) }

// A heartbeat loop: on success it waits the interval the coordinator gave and beats again.
func (m *member) heartbeats() {
	for {
		sleep, err := m.heartbeat(m.ctx)
		if err == nil {
			m.errs = 0
			timer := time.NewTimer(sleep)
			select {
			case <-m.ctx.Done():
				timer.Stop()
				return
			case <-timer.C:
			}
			continue
		}
		switch {
		case errors.Is(err, context.Canceled):
			return
		case errors.Is(err, errFenced):
			m.rejoin()
			continue
		case retryableErr(err):
		default:
			log.Printf("heartbeat: %v", err)
		}
		m.errs++
		after := time.NewTimer(m.backoff(m.errs))
		select {
		case <-m.ctx.Done():
			after.Stop()
			return
		case <-m.quit:
			after.Stop()
			return
		case <-after.C:
		}
	}
}

// A session loop: join, then run the session until it ends; an error backs off through a
// function that also says whether to stop.
func (m *member) session() error { return nil }

func (m *member) failWait(n int, err error) (stop bool) {
	log.Printf("session failed (%d in a row): %v", n, err)
	select {
	case <-m.ctx.Done():
		return true
	case <-time.After(m.backoff(n)):
		return false
	}
}

func (m *member) manage() {
	consecutive := 0
	for {
		err := m.session()
		if err == nil {
			consecutive = 0
			continue
		}
		consecutive++
		if m.failWait(consecutive, err) {
			return
		}
	}
}

// The same beat, but it leaves once the coordinator acknowledges: a retry.
func (m *member) register() error { // want register:`retries: retry loop at lifecycle.go:108, attempts=unbounded`
	for { // want `retry loop: attempts=unbounded wait=backoff deadline=context`
		_, err := m.heartbeat(m.ctx)
		if err == nil {
			return nil
		}
		m.errs++
		select {
		case <-m.ctx.Done():
			return m.ctx.Err()
		case <-time.After(m.backoff(m.errs)):
		}
	}
}

// A loop over lines whose first field is compared with a string: no select, no context.
func (m *member) settings(lines []string, parse func(string) (string, string, error)) map[string]string {
	out := make(map[string]string)
	for i := 0; i < len(lines); i++ {
		k, v, err := parse(lines[i])
		if err != nil {
			continue
		}
		if k == "-" {
			break
		}
		out[k] = v
	}
	return out
}

// A handshake that falls back to another mechanism once when the server does not support
// the first: the flag lets it go round only once more.
var errUnsupportedMech = errors.New("unsupported mechanism")

func (m *member) handshake(ctx context.Context, mech string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return []string{"PLAIN"}, errUnsupportedMech
}

func (m *member) authenticate(ctx context.Context, mechs []string) error { // want authenticate:`retries: goto retry loop at lifecycle.go:152, attempts=2`
	mech := mechs[0]
	retried := false
start: // want `goto retry loop: attempts=2 wait=none deadline=context`
	supported, err := m.handshake(ctx, mech)
	if err != nil {
		if !retried && errors.Is(err, errUnsupportedMech) && len(mechs) > 1 {
			log.Printf("mechanism %s not supported (server has %v), trying %s", mech, supported, mechs[1])
			mech = mechs[1]
			retried = true
			goto start
		}
		return err
	}
	return nil
}

// A conflict is resent once, any other error goes round without end: neither the flag nor
// the context (done, heartbeat's error is no conflict) bounds the loop.
var errConflict = errors.New("conflict")

func (m *member) commit(ctx context.Context, offsets map[string]int64) error { // want commit:`retries: retry loop at lifecycle.go:172, attempts=unbounded`
	resent := false
	for { // want `retry loop: attempts=unbounded wait=fixed deadline=none`
		_, err := m.heartbeat(ctx)
		if err == nil {
			return nil
		}
		if errors.Is(err, errConflict) {
			if resent {
				return err
			}
			log.Printf("commit of %d offsets conflicted, reloading", len(offsets))
			m.rejoin()
		}
		resent = true
		time.Sleep(m.backoff(m.errs))
	}
}

// A signal that the work arrived is not a stop signal: subscribing goes again when the
// subscription is not confirmed in time, and leaves once it is (ready, a chan struct{}).
type subscriber struct {
	acked chan struct{}
}

func (s *subscriber) subscribe(ctx context.Context, topic string) (<-chan struct{}, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return s.acked, nil
}

// publish sends msg and returns the channel its acknowledgement will close.
func (s *subscriber) publish(ctx context.Context, msg []byte) (<-chan struct{}, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return s.acked, nil
}

func (s *subscriber) await(ctx context.Context, topic string) error { // want await:`retries: retry loop at lifecycle.go:211, attempts=unbounded`
	for { // want `retry loop: attempts=unbounded wait=fixed deadline=context`
		ready, err := s.subscribe(ctx, topic)
		if err != nil {
			log.Printf("subscribe %s: %v", topic, err)
			time.Sleep(time.Second)
			continue
		}
		select {
		case <-ready:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(5 * time.Second):
			log.Printf("subscription to %s not confirmed, subscribing again", topic)
		}
	}
}

// Publishing until the broker acknowledges: a resend when no ack comes in time.
func (s *subscriber) send(ctx context.Context, msg []byte) error { // want send:`retries: retry loop at lifecycle.go:231, attempts=3`
	for attempt := 0; attempt < 3; attempt++ { // want `retry loop: attempts=3 wait=fixed deadline=context`
		acked, err := s.publish(ctx, msg)
		if err != nil {
			log.Printf("publish (attempt %d): %v", attempt+1, err)
			time.Sleep(time.Second)
			continue
		}
		select {
		case <-acked:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(5 * time.Second):
			log.Printf("no ack for %d bytes, resending", len(msg))
		}
	}
	return errors.New("publish: no ack")
}

// The heartbeat loop with each select's cases the other way round: still a lifecycle.
func (m *member) beats() {
	for {
		sleep, err := m.heartbeat(m.ctx)
		if err == nil {
			m.errs = 0
			timer := time.NewTimer(sleep)
			select {
			case <-timer.C:
			case <-m.ctx.Done():
				timer.Stop()
				return
			}
			continue
		}
		m.errs++
		select {
		case <-time.After(m.backoff(m.errs)):
		case <-m.quit:
			return
		}
	}
}

// Stops recognised by their structure, whatever they are called: a chan struct{} that another
// method closes (once), an atomic flag, a state field read under a mutex. Each loop connects
// again after a failure and serves after a success: a lifecycle, never a retry scope.

type link struct {
	mu      sync.Mutex
	state   int
	bye     chan struct{}
	byeOnce sync.Once
	off     atomic.Bool
}

func (k *link) Close() {
	k.byeOnce.Do(func() { close(k.bye) })
	k.off.Store(true)
	k.mu.Lock()
	k.state = 2
	k.mu.Unlock()
}

func (k *link) dial(ctx context.Context) (*member, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return &member{ctx: ctx}, nil
}

func (k *link) serveUntilBye(ctx context.Context) {
	for {
		m, err := k.dial(ctx)
		if err != nil {
			select {
			case <-k.bye:
				return
			case <-time.After(time.Second):
			}
			continue
		}
		select {
		case <-k.bye:
			return
		case <-m.ctx.Done():
		}
	}
}

func (k *link) serveUntilOff(ctx context.Context) {
	for !k.off.Load() {
		m, err := k.dial(ctx)
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		m.heartbeats()
	}
}

func (k *link) serveWhileOpen(ctx context.Context) {
	for {
		k.mu.Lock()
		closed := k.state == 2
		k.mu.Unlock()
		if closed {
			return
		}
		m, err := k.dial(ctx)
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		m.heartbeats()
	}
}
