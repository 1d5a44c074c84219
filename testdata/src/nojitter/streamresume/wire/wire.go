// Package wire frames packets over a connection.
package wire

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"time"
)

type Conn struct {
	net.Conn
	br *bufio.Reader
}

func Dial(addr string, timeout time.Duration) (*Conn, error) {
	c, err := net.DialTimeout("tcp", addr, timeout)
	if err != nil {
		return nil, err
	}
	return &Conn{Conn: c, br: bufio.NewReader(c)}, nil
}

func (c *Conn) ReadPacket() ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(c.br, hdr[:]); err != nil {
		return nil, fmt.Errorf("read header: %w", err)
	}
	body := make([]byte, binary.BigEndian.Uint32(hdr[:]))
	if _, err := io.ReadFull(c.br, body); err != nil {
		return nil, fmt.Errorf("read body: %w", err)
	}
	return body, nil
}

func (c *Conn) WritePacket(p []byte) error {
	var hdr [4]byte
	binary.BigEndian.PutUint32(hdr[:], uint32(len(p)))
	if _, err := c.Write(append(hdr[:], p...)); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	return nil
}
