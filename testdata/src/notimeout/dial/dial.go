// Package dial: connections opened with net and crypto/tls.
package dial

import (
	"context"
	"crypto/tls"
	"net"
	"time"
)

// ---- Reported ----

func dial(addr string) (net.Conn, error) {
	return net.Dial("tcp", addr) // want `net\.Dial has no timeout, so an unresponsive host blocks this call for minutes; use a net\.Dialer with a Timeout`
}

func dialNetwork(network, addr string) {
	net.Dial(network, addr) // want `net\.Dial has no timeout, so an unresponsive host blocks this call for minutes; use a net\.Dialer with a Timeout`
}

func dialTCP(raddr *net.TCPAddr) {
	net.DialTCP("tcp", nil, raddr) // want `net\.DialTCP has no timeout, so an unresponsive host blocks this call for minutes; use a net\.Dialer with a Timeout`
}

func zeroTimeout(addr string) {
	net.DialTimeout("tcp", addr, 0) // want `net\.DialTimeout with a zero timeout has none, so an unresponsive host blocks this call for minutes; pass a timeout`
}

func tlsDial(addr string) {
	tls.Dial("tcp", addr, &tls.Config{}) // want `tls\.Dial has no timeout, so a stalled TLS handshake hangs this call; use tls\.DialWithDialer with a Timeout`
}

func zeroDialer(addr string) {
	var d net.Dialer
	d.Dial("tcp", addr) // related "dial.go:34: this net.Dialer has no Timeout" // want `net\.Dialer without a Timeout dials without a context, so an unresponsive host blocks this call for minutes`
}

func dialerBackground(addr string) {
	d := &net.Dialer{KeepAlive: time.Minute}
	d.DialContext(context.Background(), "tcp", addr) // related "dial.go:39: this net.Dialer has no Timeout" "dial.go:40: context.Background() has no deadline" // want `net\.Dialer without a Timeout gets a context without a deadline, so an unresponsive host blocks this call for minutes`
}

func tlsDialer(addr string) {
	d := &tls.Dialer{Config: &tls.Config{}}
	d.Dial("tcp", addr) // related "dial.go:44: this tls.Dialer has no Timeout" // want `tls\.Dialer without a Timeout dials without a context, so a stalled TLS handshake hangs this call; set its Timeout`
}

func tlsWithZeroDialer(addr string) {
	tls.DialWithDialer(&net.Dialer{}, "tcp", addr, nil) // related "dial.go:49: this net.Dialer has no Timeout" // want `net\.Dialer without a Timeout dials without a context, so a stalled TLS handshake hangs this call; set its Timeout`
}

// ---- Not reported ----

func dialTimeout(addr string) {
	net.DialTimeout("tcp", addr, 5*time.Second)
}

func dialerTimeout(addr string) {
	d := net.Dialer{Timeout: 3 * time.Second}
	d.Dial("tcp", addr)
}

func dialerDeadline(addr string) {
	d := &net.Dialer{Deadline: time.Now().Add(time.Second)}
	d.Dial("tcp", addr)
}

func dialContextDeadline(addr string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	var d net.Dialer
	d.DialContext(ctx, "tcp", addr)
}

func dialContextFromCaller(ctx context.Context, addr string) {
	var d net.Dialer
	d.DialContext(ctx, "tcp", addr)
}

func udp(addr string) {
	net.Dial("udp", addr)
	net.Dial("unix", "/run/app.sock")
}

func tlsWithDialer(addr string) {
	tls.DialWithDialer(&net.Dialer{Timeout: time.Second}, "tcp", addr, nil)
}

func tlsDialerWithTimeout(addr string) {
	d := &tls.Dialer{NetDialer: &net.Dialer{Timeout: time.Second}}
	d.DialContext(context.Background(), "tcp", addr)
}

func dialerFromCaller(d *net.Dialer, addr string) {
	d.Dial("tcp", addr)
}

// Dialing a listener the program holds: the kernel accepts at once (a free-port helper).
func reservePort() error {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer l.Close()
	c, err := net.DialTCP("tcp", nil, l.Addr().(*net.TCPAddr))
	if err != nil {
		return err
	}
	net.Dial("tcp", l.Addr().String())
	return c.Close()
}

func dialLocal(port string) {
	net.Dial("tcp", "127.0.0.1:"+port)
	net.Dial("tcp", ":"+port)
	net.Dial("tcp", net.JoinHostPort("localhost", port))
}

// The caller's context is at hand but not used.
func tlsIgnoringContext(ctx context.Context, addr string) {
	tls.Dial("tcp", addr, nil) // want `tls\.Dial has no timeout, so a stalled TLS handshake hangs this call; use a tls\.Dialer's DialContext with ctx`
}

// A server the package starts on a listener of its own, and clients dialing its address,
// which travels through a struct field.
type harness struct {
	ln   net.Listener
	addr string
}

func startHarness() (*harness, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	return &harness{ln: ln, addr: ln.Addr().String()}, nil
}

func (h *harness) connect() (net.Conn, error) {
	return net.Dial("tcp", h.addr)
}

func (h *harness) addrOf() string { return h.addr }

func (h *harness) connectAgain() (net.Conn, error) {
	return net.Dial("tcp", h.addrOf())
}

// ---- Reported: the field holds a listener's address, or the caller's ----

type peer struct {
	addr string
}

func newPeer(addr string) *peer { return &peer{addr: addr} }

func loopbackPeer(ln net.Listener) *peer { return &peer{addr: ln.Addr().String()} }

func (p *peer) connect() (net.Conn, error) {
	return net.Dial("tcp", p.addr) // want `net\.Dial has no timeout, so an unresponsive host blocks this call for minutes; use a net\.Dialer with a Timeout`
}
