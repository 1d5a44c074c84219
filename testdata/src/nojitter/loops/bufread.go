package loops

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"time"
)

// A wire-protocol reader: a field longer than the bufio buffer comes back in pieces, each
// with bufio.ErrBufferFull, and the loop reads on. Nothing failed; nothing is tried again.

// byteSource is what rows are read from: a connection's buffered reader, in production.
type byteSource interface {
	ReadSlice(delim byte) ([]byte, error)
	ReadByte() (byte, error)
}

type rowReader struct {
	conn net.Conn
	rd   byteSource
}

func newRowReader(conn net.Conn) *rowReader {
	return &rowReader{conn: conn, rd: bufio.NewReaderSize(conn, 64)}
}

// field reads up to the next separator, however long the field is.
func (r *rowReader) field(sep byte) ([]byte, error) {
	if err := r.conn.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
		return nil, err
	}
	var b []byte
	for {
		part, err := r.rd.ReadSlice(sep)
		if err == nil {
			b = append(b, part[:len(part)-1]...)
			break
		}
		b = append(b, part...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF && len(b) > 0 {
			break
		}
		return nil, fmt.Errorf("read field: %w", err)
	}
	return b, nil
}

// quoted reads a quoted field, with the test written the other way round.
func (r *rowReader) quoted() ([]byte, error) {
	var b []byte
	for {
		part, err := r.rd.ReadSlice('"')
		b = append(b, part...)
		if err != nil {
			if !errors.Is(err, bufio.ErrBufferFull) {
				return nil, err
			}
			continue
		}
		if len(b) > 1 && b[len(b)-2] != '\\' {
			return b, nil
		}
	}
}

// readRow goes round when the connection drops in the middle of a row: that is a retry, and
// it waits a fixed second each time.
func readRow(addr string) ([]byte, error) {
	for attempt := 0; attempt < 5; attempt++ {
		conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			return nil, err
		}
		row, err := newRowReader(conn).field('\n')
		conn.Close()
		if err == nil {
			return row, nil
		}
		if err == io.ErrUnexpectedEOF || errors.Is(err, io.ErrUnexpectedEOF) {
			log.Printf("row cut short, attempt %d: %v", attempt, err)
			time.Sleep(time.Second) // related "bufread.go:76: retry loop" // want `retry loop waits a fixed 1s between attempts, so clients that failed together retry together; add jitter`
			continue
		}
		return nil, err
	}
	return nil, errors.New("row: too many attempts")
}
