package loops

import (
	"bufio"
	"errors"
	"fmt"
	"log"
	"net"
	"sync"
	"time"
)

// Loops whose attempt returns its own verdict beside its error: a "try again" flag set only
// when the attempt failed in a way worth repeating, or an "ok" flag set only when it worked.
// The flag is the failure test; the loop goes round on it.

type shipper struct {
	mu      sync.Mutex
	addr    string
	conn    net.Conn
	retries int
	wait    time.Duration
}

// write sends one frame; it says whether the caller should try again.
func (f *shipper) write(frame []byte) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.conn == nil {
		c, err := net.DialTimeout("tcp", f.addr, 3*time.Second)
		if err != nil {
			return true, fmt.Errorf("dial %s: %w", f.addr, err)
		}
		f.conn = c
	}
	if err := f.conn.SetWriteDeadline(time.Now().Add(5 * time.Second)); err != nil {
		return false, err
	}
	if _, err := f.conn.Write(frame); err != nil {
		f.conn.Close()
		f.conn = nil
		return true, fmt.Errorf("write: %w", err)
	}
	return false, nil
}

// Send goes round while write asks to, after a fixed pause.
func (f *shipper) Send(frame []byte) error {
	var err error
	for i := 0; i < f.retries; i++ {
		var again bool
		again, err = f.write(frame)
		if !again {
			return err
		}
		log.Printf("forward: attempt %d failed: %v", i+1, err)
		time.Sleep(f.wait) // related "flagged.go:50: retry loop" // want `retry loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
	}
	return fmt.Errorf("forward: gave up after %d attempts: %w", f.retries, err)
}

// flush reports whether the frame went out.
func (f *shipper) flush(frame []byte) (bool, error) {
	if _, err := f.conn.Write(frame); err != nil {
		return false, err
	}
	return true, nil
}

// Flush goes round until flush says it worked.
func (f *shipper) Flush(frame []byte) error {
	var err error
	for i := 0; i < 4; i++ {
		var ok bool
		if ok, err = f.flush(frame); ok {
			return nil
		}
		time.Sleep(250 * time.Millisecond) // related "flagged.go:73: retry loop" // want `retry loop waits a fixed 250ms between attempts, so clients that failed together retry together; add jitter`
	}
	return err
}

// nextRecord reads one record; its flag says whether there are more, and it comes with a nil error
// on both sides: it is not a verdict on the attempt.
func nextRecord(r *bufio.Reader) (bool, error) {
	line, err := r.ReadString('\n')
	if errors.Is(err, errNoMore) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if line == "\n" {
		return true, nil
	}
	return true, nil
}

var errNoMore = errors.New("done")

// Drain reads records until next says there are no more; the pause paces a reader, not a retry.
func Drain(r *bufio.Reader) error {
	for {
		more, err := nextRecord(r)
		if err != nil {
			return err
		}
		if !more {
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// settle's flag is decided by a deferred closure after its returns: what the returns say is
// not what the caller gets. The caller's loop shows the flag's sense: it waits before it goes
// round on it.
func (f *shipper) settle(frame []byte) (again bool, err error) {
	defer func() { again = err != nil && f.conn != nil }()
	if _, err = f.conn.Write(frame); err != nil {
		return true, err
	}
	return false, nil
}

// Settle goes round while settle asks to, after a fixed pause: a retry of the write.
func (f *shipper) Settle(frame []byte) error {
	for i := 0; i < 3; i++ {
		again, err := f.settle(frame)
		if !again {
			return err
		}
		time.Sleep(100 * time.Millisecond) // related "flagged.go:128: retry loop" // want `retry loop waits a fixed 100ms between attempts, so clients that failed together retry together; add jitter`
	}
	return errors.New("settle: gave up")
}
