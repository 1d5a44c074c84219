package loops

import (
	"errors"
	"log"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// Clients whose reconnect loops run until another method stops them: Disconnect changes a
// status guarded by a mutex, Close sets an atomic flag. Like a loop that watches a context,
// they stop when the program says so; their fixed waits are still a herd.

type connState int

const (
	disconnected connState = iota
	connecting
	connected
)

type statusBox struct {
	sync.RWMutex
	state connState
}

func (s *statusBox) get() connState {
	s.RLock()
	defer s.RUnlock()
	return s.state
}

func (s *statusBox) set(st connState) {
	s.Lock()
	s.state = st
	s.Unlock()
}

type brokerClient struct {
	addr          string
	retryInterval time.Duration
	autoRetry     bool
	status        statusBox
	closed        atomic.Bool
	conn          net.Conn
}

func (c *brokerClient) dial() error {
	conn, err := net.DialTimeout("tcp", c.addr, 10*time.Second)
	if err != nil {
		return err
	}
	c.conn = conn
	return nil
}

// Disconnect stops a connect in progress.
func (c *brokerClient) Disconnect() { c.status.set(disconnected) }

// Close stops the keeper.
func (c *brokerClient) Close() { c.closed.Store(true) }

// connectLoop tries until it connects or Disconnect is called.
func (c *brokerClient) connectLoop() error {
	c.status.set(connecting)
	for attempt := 1; ; attempt++ {
		err := c.dial()
		if err == nil {
			c.status.set(connected)
			return nil
		}
		log.Printf("connect to %s failed (attempt %d): %v", c.addr, attempt, err)
		time.Sleep(c.retryInterval) // related "stopstate.go:68: retry loop" // want `retry loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
		if c.status.get() != connecting {
			return errors.New("connect abandoned")
		}
	}
}

// keep redials until Close.
func (c *brokerClient) keep() error {
	backoff := time.Second
	for {
		if c.closed.Load() {
			return nil
		}
		err := c.dial()
		if err == nil {
			return nil
		}
		log.Printf("redial: %v", err)
		time.Sleep(backoff) // related "stopstate.go:85: retry loop" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
		backoff = min(backoff*2, time.Minute)
	}
}

// resubscriber keeps a subscription; Shutdown moves its state on, atomically.
type resubscriber struct {
	client *brokerClient
	state  atomic.Int32 // 0 running, 1 shutting down
}

// Shutdown stops resubscribe.
func (r *resubscriber) Shutdown() { r.state.Store(1) }

// resubscribe redials until it connects or Shutdown is called.
func (r *resubscriber) resubscribe() error {
	for {
		err := r.client.dial()
		if err == nil {
			return nil
		}
		log.Printf("resubscribe: %v", err)
		time.Sleep(2 * time.Second) // related "stopstate.go:110: retry loop" // want `retry loop waits a fixed 2s between attempts, so clients that failed together retry together; add jitter`
		if r.state.Load() != 0 {
			return errors.New("shut down")
		}
	}
}

// retryWhileEnabled stops only on an option nobody changes while it runs: it retries for ever.
func (c *brokerClient) retryWhileEnabled() error {
	for { // related "stopstate.go:125: retry loop" // want `retry loop retries for ever \(no attempt cap, no deadline\); count the attempts and stop after a few`
		err := c.dial()
		if err == nil {
			return nil
		}
		if !c.autoRetry {
			return err
		}
		time.Sleep(c.retryInterval) // related "stopstate.go:125: retry loop" // want `retry loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
	}
}

// SetAutoRetry is the option's setter.
func (c *brokerClient) SetAutoRetry(on bool) { c.autoRetry = on }

// reader keeps connections to its producers; Stop sets an int32 flag with sync/atomic's
// functions, and a producer removed from the list is not reconnected.
type reader struct {
	mtx      sync.RWMutex
	addrs    []string
	stopFlag int32
	client   *brokerClient
	interval time.Duration
}

var errAlreadyConnected = errors.New("already connected")

// Stop stops the reconnect loops.
func (r *reader) Stop() { atomic.StoreInt32(&r.stopFlag, 1) }

func indexOf(s string, list []string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// reconnectLater redials in the background after a connection closed.
func (r *reader) reconnectLater(addr string) {
	go func() {
		for {
			log.Printf("(%s) reconnecting in %s", addr, r.interval)
			time.Sleep(r.interval) // related "stopstate.go:167: retry loop" // want `retry loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
			if atomic.LoadInt32(&r.stopFlag) == 1 {
				break
			}
			r.mtx.RLock()
			listed := indexOf(addr, r.addrs) >= 0
			r.mtx.RUnlock()
			if !listed {
				log.Printf("(%s) removed, not reconnecting", addr)
				return
			}
			err := r.client.dial()
			if err != nil && err != errAlreadyConnected {
				log.Printf("(%s) reconnect: %v", addr, err)
				continue
			}
			break
		}
	}()
}
