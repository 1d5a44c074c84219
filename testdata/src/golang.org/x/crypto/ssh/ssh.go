// Package ssh is a stub of golang.org/x/crypto/ssh.
package ssh

import (
	"net"
	"time"
)

// AuthMethod is a way to authenticate.
type AuthMethod interface{ method() string }

type passwordAuth string

func (passwordAuth) method() string { return "password" }

// Password returns an AuthMethod using the password.
func Password(secret string) AuthMethod { return passwordAuth(secret) }

// HostKeyCallback checks a server's host key.
type HostKeyCallback func(hostname string, remote net.Addr, key PublicKey) error

// PublicKey is a server's public key.
type PublicKey interface{ Type() string }

// InsecureIgnoreHostKey accepts any host key.
func InsecureIgnoreHostKey() HostKeyCallback {
	return func(string, net.Addr, PublicKey) error { return nil }
}

// ClientConfig configures a client. Timeout is the maximum time for the TCP connection to
// establish; zero means no timeout.
type ClientConfig struct {
	User            string
	Auth            []AuthMethod
	HostKeyCallback HostKeyCallback
	Timeout         time.Duration
}

// Client is an SSH client connection.
type Client struct{ conn net.Conn }

// Dial starts a client connection to the given SSH server.
func Dial(network, addr string, config *ClientConfig) (*Client, error) {
	conn, err := net.DialTimeout(network, addr, config.Timeout)
	if err != nil {
		return nil, err
	}
	return &Client{conn: conn}, nil
}

// Session is a remote command's session.
type Session struct{}

// NewSession opens a session.
func (c *Client) NewSession() (*Session, error) { return &Session{}, nil }

// Run runs cmd in the session.
func (s *Session) Run(cmd string) error { return nil }

// Close closes the session.
func (s *Session) Close() error { return nil }

// Close closes the connection.
func (c *Client) Close() error { return c.conn.Close() }
