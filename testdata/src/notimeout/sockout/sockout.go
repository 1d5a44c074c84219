// Package sockout is an output plugin that writes lines to a socket. Connect implements a
// method without a context, but a dial needs none to be bounded: net.Dial without a timeout is
// reported there all the same; net.DialTimeout and a Dialer with a Timeout are not.
package sockout

import (
	"bufio"
	"crypto/tls"
	"fmt"
	"net"
	"strings"
	"time"

	"pluginapi"
)

var _ pluginapi.Output = (*Socket)(nil)

type Socket struct {
	Address   string // "tcp://host:port", "udp://host:port", "unix:///path"
	TLS       *tls.Config
	KeepAlive time.Duration

	conn net.Conn
	w    *bufio.Writer
}

func (s *Socket) Connect() error {
	network, addr, ok := strings.Cut(s.Address, "://")
	if !ok {
		return fmt.Errorf("sockout: invalid address %q", s.Address)
	}
	var (
		c   net.Conn
		err error
	)
	if s.TLS == nil {
		c, err = net.Dial(network, addr) // want `net\.Dial has no timeout, so an unresponsive host blocks this call for minutes; use a net\.Dialer with a Timeout`
	} else {
		c, err = tls.Dial(network, addr, s.TLS) // want `tls\.Dial has no timeout, so a stalled TLS handshake hangs this call; use tls\.DialWithDialer with a Timeout`
	}
	if err != nil {
		return fmt.Errorf("sockout: connecting to %s: %w", s.Address, err)
	}
	if tcp, ok := c.(*net.TCPConn); ok && s.KeepAlive > 0 {
		if err := tcp.SetKeepAlivePeriod(s.KeepAlive); err != nil {
			c.Close()
			return err
		}
	}
	s.conn, s.w = c, bufio.NewWriter(c)
	return nil
}

func (s *Socket) Write(lines []string) error {
	if s.conn == nil {
		if err := s.Connect(); err != nil {
			return err
		}
	}
	for _, l := range lines {
		if _, err := s.w.WriteString(l + "\n"); err != nil {
			s.Close()
			return err
		}
	}
	return s.w.Flush()
}

func (s *Socket) Close() error {
	if s.conn == nil {
		return nil
	}
	err := s.conn.Close()
	s.conn, s.w = nil, nil
	return err
}

// Bounded is the same plugin dialing with timeouts.
type Bounded struct{ Socket }

func (b *Bounded) Connect() error {
	network, addr, ok := strings.Cut(b.Address, "://")
	if !ok {
		return fmt.Errorf("sockout: invalid address %q", b.Address)
	}
	var (
		c   net.Conn
		err error
	)
	if b.TLS == nil {
		c, err = net.DialTimeout(network, addr, 10*time.Second)
	} else {
		c, err = tls.DialWithDialer(&net.Dialer{Timeout: 10 * time.Second}, network, addr, b.TLS)
	}
	if err != nil {
		return err
	}
	b.conn, b.w = c, bufio.NewWriter(c)
	return nil
}
