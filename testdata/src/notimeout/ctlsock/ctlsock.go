// Package ctlsock is the client side of a daemon's control socket and of its replication peer
// link. Both dial through a function that takes the network from its caller: whether the dial
// can wait on an unresponsive peer depends on the network the caller names, so the callers
// decide. The package's own calls pass "unix" for the control socket (a local socket fails or
// connects at once) and "tcp" for the peer link (which can stall): only the latter is reported.
package ctlsock

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"strings"
)

// Status is the daemon's answer to a status request.
type Status struct {
	Jobs    []string `json:"jobs"`
	Version string   `json:"version"`
}

// Conn is a line-oriented connection to the daemon or a peer.
type Conn struct {
	c net.Conn
	r *bufio.Reader
}

// Open dials network/addr; the caller names the network.
func Open(network, addr string) (*Conn, error) {
	c, err := net.Dial(network, addr)
	if err != nil {
		return nil, fmt.Errorf("dial %s %s: %w", network, addr, err)
	}
	return &Conn{c: c, r: bufio.NewReader(c)}, nil
}

// Dialer returns a dial function for an HTTP transport or an RPC client, bound to network and
// addr.
func Dialer(network, addr string) func(ctx context.Context) (net.Conn, error) {
	return func(_ context.Context) (net.Conn, error) { return net.Dial(network, addr) }
}

func (c *Conn) call(cmd string, out any) error {
	if _, err := fmt.Fprintln(c.c, cmd); err != nil {
		return err
	}
	line, err := c.r.ReadString('\n')
	if err != nil {
		return err
	}
	if rest, ok := strings.CutPrefix(line, "ERR "); ok {
		return fmt.Errorf("%s: %s", cmd, strings.TrimSpace(rest))
	}
	return json.Unmarshal([]byte(line), out)
}

// ---- Not reported: the package's own call names a Unix socket ----

// DaemonStatus asks the local daemon for its status over the control socket.
func DaemonStatus(sockPath string) (*Status, error) {
	c, err := Open("unix", sockPath)
	if err != nil {
		return nil, err
	}
	defer c.c.Close()
	var s Status
	if err := c.call("STATUS", &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// ---- Reported: a dial of a network the caller names, and the caller names TCP ----

// peerDial dials a replication peer; its only caller names TCP.
func peerDial(network, addr string) (net.Conn, error) {
	return net.Dial(network, addr) // want `net\.Dial has no timeout, so an unresponsive host blocks this call for minutes; use a net\.Dialer with a Timeout`
}

// PeerVersion asks a replication peer for its version.
func PeerVersion(addr string) (string, error) {
	c, err := peerDial("tcp", addr)
	if err != nil {
		return "", err
	}
	defer c.Close()
	conn := &Conn{c: c, r: bufio.NewReader(c)}
	var s Status
	if err := conn.call("VERSION", &s); err != nil {
		return "", err
	}
	return s.Version, nil
}
