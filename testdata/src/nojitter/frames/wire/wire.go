// Package wire reads a protocol's frames from a connection.
package wire

import (
	"bufio"
	"errors"
	"io"
)

// Frame kinds.
const (
	KindReply = '+'
	KindPush  = '>'
	KindAttr  = '|'
)

// Reader reads frames from a buffered connection.
type Reader struct {
	rd *bufio.Reader
}

func NewReader(r io.Reader) *Reader { return &Reader{rd: bufio.NewReader(r)} }

// Buffered is the number of bytes read ahead.
func (r *Reader) Buffered() int { return r.rd.Buffered() }

// PeekKind returns the kind of the next frame without consuming it.
func (r *Reader) PeekKind() (byte, error) {
	b, err := r.rd.Peek(1)
	if err != nil {
		return 0, err
	}
	return b[0], nil
}

// PeekName returns the name of the next push frame.
func (r *Reader) PeekName() (string, error) {
	b, err := r.rd.Peek(16)
	if err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	if len(b) < 2 || b[0] != KindPush {
		return "", errors.New("wire: next frame is not a push")
	}
	return string(b[1:]), nil
}

// Discard consumes the next frame.
func (r *Reader) Discard() error {
	line, err := r.rd.ReadSlice('\n')
	if err != nil {
		return err
	}
	_ = line
	return nil
}

// ReadFrame consumes the next frame and returns it.
func (r *Reader) ReadFrame() ([]byte, error) {
	return r.rd.ReadBytes('\n')
}
