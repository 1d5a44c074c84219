// Package portpick serves a coordinator's API, on a configured address or on the first free
// port of a range: the loop that moves on to the next port goes round only when the address is
// taken (EADDRINUSE, this machine's own), and the readiness poll dials the server's own Addr.
// Neither is reported.
package portpick

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"syscall"
	"time"
)

const (
	minPort = 8000
	maxPort = 8100
)

// serve starts s in the background and waits until it accepts connections.
func serve(s *http.Server) error {
	errs := make(chan error, 1)
	go func() {
		if err := s.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			errs <- err
		}
	}()
	for range 50 {
		select {
		case err := <-errs:
			return err
		case <-time.After(100 * time.Millisecond):
		}
		if c, err := net.DialTimeout("tcp", s.Addr, time.Second); err == nil {
			c.Close()
			return nil
		}
	}
	return fmt.Errorf("server on %s did not start", s.Addr)
}

// API is the coordinator's HTTP API.
type API struct {
	srv *http.Server
	log *slog.Logger
}

// Start serves the API; without an address, on the first port of the range not in use.
func (a *API) Start() error {
	if a.srv.Addr != "" {
		return serve(a.srv)
	}
	for port := minPort; port < maxPort; port++ {
		a.srv.Addr = fmt.Sprintf("localhost:%d", port)
		err := serve(a.srv)
		if err == nil {
			a.log.Info("listening", "addr", a.srv.Addr)
			return nil
		}
		if errors.Is(err, syscall.EADDRINUSE) {
			continue
		}
		return fmt.Errorf("starting API: %w", err)
	}
	return errors.New("no free port")
}

// ---- Reported: loops that go round on failures of a remote peer ----

// register announces this node to a registry, going round at once when the registry refuses
// the connection.
func register(registry string, body []byte) error {
	for range 20 { // related "portpick.go:75: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		c, err := net.DialTimeout("tcp", registry, 2*time.Second)
		if err == nil {
			defer c.Close()
			_, err = c.Write(body)
			return err
		}
		if errors.Is(err, syscall.ECONNREFUSED) {
			continue
		}
		return err
	}
	return errors.New("registry refused every connection")
}

// dialFrom connects to an upstream from a fixed local port (a firewall lets only that one
// through), going round when the local port is still taken or the upstream refuses: the
// upstream's refusals repeat too.
func dialFrom(local *net.TCPAddr, upstream string) (net.Conn, error) {
	d := net.Dialer{LocalAddr: local, Timeout: time.Second}
	var last error
	for attempt := 0; attempt < 10; attempt++ {
		c, err := d.Dial("tcp", upstream)
		if err == nil {
			return c, nil
		}
		last = err
		if errors.Is(err, syscall.EADDRINUSE) || errors.Is(err, syscall.ECONNREFUSED) {
			time.Sleep(500 * time.Millisecond) // related "portpick.go:96: retry loop" // want `retry loop waits a fixed 500ms between attempts, so clients that failed together retry together; add jitter`
			continue
		}
		return nil, err
	}
	return nil, last
}
