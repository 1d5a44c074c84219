// Package eventstream parses a replication stream: events come one after another from a
// reader (a file, or a connection to the primary), each a fixed header and a body. The loop
// over the events is iteration: each round reads the next event from a reader made before the
// loop, through a method handed that reader (nojitter/loops/chunks.go has the loop that reads
// its own round's answer short, and retries).
package eventstream

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"sync/atomic"
	"time"
)

const headerSize = 19

var errUnknownTable = errors.New("eventstream: row event for a table not seen yet")

type Header struct {
	Timestamp uint32
	Type      byte
	ServerID  uint32
	Size      uint32
}

type Event struct {
	Header Header
	Raw    []byte
}

type Parser struct {
	stop   atomic.Bool
	tables map[uint64]string
}

func (p *Parser) parseHeader(b []byte) (*Header, error) {
	if len(b) < headerSize {
		return nil, fmt.Errorf("eventstream: header of %d bytes", len(b))
	}
	return &Header{
		Timestamp: binary.LittleEndian.Uint32(b[0:]),
		Type:      b[4],
		ServerID:  binary.LittleEndian.Uint32(b[5:]),
		Size:      binary.LittleEndian.Uint32(b[9:]),
	}, nil
}

// parseOne reads the next event from r and hands it to onEvent; done at the end of r.
func (p *Parser) parseOne(r io.Reader, onEvent func(*Event) error) (bool, error) {
	var buf bytes.Buffer
	if n, err := io.CopyN(&buf, r, headerSize); err == io.EOF {
		return true, nil
	} else if err != nil {
		return false, fmt.Errorf("eventstream: header: %w (%d bytes)", err, n)
	}
	h, err := p.parseHeader(buf.Bytes())
	if err != nil {
		return false, err
	}
	if h.Size < headerSize {
		return false, fmt.Errorf("eventstream: event of %d bytes", h.Size)
	}
	if _, err := io.CopyN(&buf, r, int64(h.Size-headerSize)); err != nil {
		return false, fmt.Errorf("eventstream: body: %w", err)
	}
	if h.Type == 30 && len(p.tables) == 0 {
		return false, errUnknownTable
	}
	return false, onEvent(&Event{Header: *h, Raw: buf.Bytes()})
}

// ---- Not reported ----

// ParseReader parses the events of r until its end; an event for an unknown table is skipped.
func (p *Parser) ParseReader(r io.Reader, onEvent func(*Event) error) error {
	for !p.stop.Load() {
		done, err := p.parseOne(r, onEvent)
		if err != nil {
			if err == errUnknownTable {
				continue
			}
			return err
		}
		if done {
			break
		}
	}
	return nil
}

// Follow parses the events the primary sends on conn.
func (p *Parser) Follow(addr string, onEvent func(*Event) error) error {
	conn, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		return err
	}
	defer conn.Close()
	return p.ParseReader(conn, onEvent)
}
