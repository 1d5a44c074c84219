package loops

import (
	"errors"
	"net"
	"syscall"
	"time"
)

// Test support shipped in a production file, for the package's users' tests: a mock server
// handed a test reporter (an interface standing for testing.TB). Its retries bind a local
// port for a test; no clients fail together.

// Reporter is the part of testing.TB the mock needs.
type Reporter interface {
	Errorf(format string, args ...any)
	Fatal(args ...any)
	Helper()
}

type MockServer struct {
	t        Reporter
	listener net.Listener
}

// NewMockServer listens on addr, waiting for a previous mock to let go of it.
func NewMockServer(t Reporter, addr string) *MockServer {
	var (
		l   net.Listener
		err error
	)
	for range 20 {
		l, err = net.Listen("tcp", addr)
		if err != nil {
			if errors.Is(err, syscall.EADDRINUSE) {
				time.Sleep(100 * time.Millisecond)
				continue
			}
			t.Fatal(err)
		}
		break
	}
	return &MockServer{t: t, listener: l}
}

// Restart listens again on the same address.
func (m *MockServer) Restart() {
	addr := m.listener.Addr().String()
	_ = m.listener.Close()
	for attempt := 0; attempt < 20; attempt++ {
		l, err := net.Listen("tcp", addr)
		if err == nil {
			m.listener = l
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	m.t.Errorf("mock server: cannot listen on %s again", addr)
}

// A logger with Fatalf and Errorf is not a test reporter: this is production code.
type Logger interface {
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

func Connect(log Logger, addr string) (net.Conn, error) {
	var err error
	d := net.Dialer{Timeout: 5 * time.Second}
	for attempt := 0; attempt < 10; attempt++ {
		var c net.Conn
		if c, err = d.Dial("tcp", addr); err == nil {
			return c, nil
		}
		log.Errorf("dial %s: %v", addr, err)
		time.Sleep(100 * time.Millisecond) // related "mockserver.go:70: retry loop" // want `retry loop waits a fixed 100ms between attempts, so clients that failed together retry together; add jitter`
	}
	return nil, err
}

// Not reported: binding a local port again until it is free protects no remote dependency.
func Serve(log Logger, addr string) (net.Listener, error) {
	var err error
	for attempt := 0; attempt < 10; attempt++ {
		var l net.Listener
		if l, err = net.Listen("tcp", addr); err == nil {
			return l, nil
		}
		log.Errorf("listen %s: %v", addr, err)
		time.Sleep(100 * time.Millisecond)
	}
	return nil, err
}
