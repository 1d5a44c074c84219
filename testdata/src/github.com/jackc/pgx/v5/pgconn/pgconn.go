// Package pgconn is a stub of github.com/jackc/pgx/v5/pgconn: a low-level PostgreSQL
// connection that can speak the replication protocol.
package pgconn

import (
	"context"
	"errors"
	"net"
)

type Config struct {
	Host          string
	RuntimeParams map[string]string
}

func ParseConfig(connString string) (*Config, error) {
	return &Config{RuntimeParams: map[string]string{}}, nil
}

// BackendMessage is a message from the server.
type BackendMessage interface{ Backend() }

type CopyData struct{ Data []byte }

func (*CopyData) Backend() {}

type ErrorResponse struct{ Code, Message string }

func (*ErrorResponse) Backend() {}

type frontend interface {
	Receive() (BackendMessage, error)
}

type PgConn struct {
	conn     net.Conn
	frontend frontend
}

func ConnectConfig(ctx context.Context, config *Config) (*PgConn, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", config.Host)
	if err != nil {
		return nil, err
	}
	return &PgConn{conn: conn}, nil
}

// ReceiveMessage receives the next message from the server; it blocks until one arrives or
// ctx is done.
func (c *PgConn) ReceiveMessage(ctx context.Context) (BackendMessage, error) {
	if d, ok := ctx.Deadline(); ok {
		c.conn.SetReadDeadline(d)
	}
	return c.frontend.Receive()
}

func (c *PgConn) WaitForNotification(ctx context.Context) error { return nil }

func (c *PgConn) Close(ctx context.Context) error { return nil }

// Timeout reports whether err was a timeout.
func Timeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
