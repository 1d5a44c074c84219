// Package fieldwalk decodes the answers of a document store's wire protocol: a map of named
// fields read one after another from the connection. The decoding loops go round after each
// field whatever that field's read gave, and leave on a malformed answer with an error of
// their own: they walk an answer, they do not retry anything. The request loop of the client
// does retry, at once and without a cap, which hammers the store.
package fieldwalk

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"time"
)

// Value is one decoded field value.
type Value interface{}

// MapValue is a decoded map.
type MapValue struct{ Fields map[string]Value }

// Reader reads the wire format. The codec the client is configured with makes one over the
// connection.
type Reader interface {
	ReadInt() (int, error)
	ReadString() (string, error)
	ReadFieldValue() (Value, error)
	ReadMapHeader() (int, error)
}

// Codec makes the readers of the store's answers.
type Codec interface {
	NewReader(io.Reader) Reader
}

type mapWalker struct {
	r     Reader
	n, at int
	cur   string
}

func newMapWalker(r Reader) (*mapWalker, error) {
	n, err := r.ReadMapHeader()
	if err != nil {
		return nil, err
	}
	return &mapWalker{r: r, n: n}, nil
}

func (w *mapWalker) more() bool { return w.at < w.n }

// advance reads the next field's name; the walk stays where it is when that fails.
func (w *mapWalker) advance() error {
	name, err := w.r.ReadString()
	if err != nil {
		return err
	}
	w.cur = name
	w.at++
	return nil
}

// WriteResult is what the store answers to a conditional write.
type WriteResult struct {
	ExistingVersion int
	ExistingValue   *MapValue
	ModTime         time.Time
}

func skipField(r Reader) error {
	_, err := r.ReadFieldValue()
	return err
}

// readWriteResult walks the fields of a write's answer. The existing value's read shadows
// err: a failed read of it is skipped, and the walk goes on; a value of the wrong kind ends it.
func readWriteResult(r Reader) (WriteResult, error) {
	res := &WriteResult{}
	w, err := newMapWalker(r)
	for err == nil && w.more() {
		w.advance()
		switch w.cur {
		case "existing_version":
			res.ExistingVersion, err = r.ReadInt()
		case "existing_value":
			v, err := r.ReadFieldValue()
			if err == nil {
				if m, ok := v.(*MapValue); ok {
					res.ExistingValue = m
				} else {
					return *res, errors.New("existing value is not a map")
				}
			}
		case "mod_time":
			var ms int
			ms, err = r.ReadInt()
			res.ModTime = time.UnixMilli(int64(ms))
		default:
			err = skipField(r)
		}
	}
	if err != nil {
		return *res, fmt.Errorf("decode write result: %w", err)
	}
	return *res, nil
}

// readTopology walks a topology answer; every field's error ends the walk.
func readTopology(r Reader) ([]int, error) {
	var shards []int
	w, err := newMapWalker(r)
	for err == nil && w.more() {
		w.advance()
		var id int
		if id, err = r.ReadInt(); err == nil {
			if id < 0 {
				return nil, fmt.Errorf("negative shard id %d", id)
			}
			shards = append(shards, id)
		}
	}
	return shards, err
}

// Client sends requests to the store.
type Client struct {
	addr  string
	codec Codec
}

func (c *Client) send(ctx context.Context, req []byte) (Reader, error) {
	d := net.Dialer{Timeout: 2 * time.Second}
	nc, err := d.DialContext(ctx, "tcp", c.addr)
	if err != nil {
		return nil, err
	}
	if err := nc.SetDeadline(time.Now().Add(5 * time.Second)); err != nil {
		nc.Close()
		return nil, err
	}
	if _, err := nc.Write(req); err != nil {
		nc.Close()
		return nil, err
	}
	return c.codec.NewReader(bufio.NewReader(nc)), nil
}

// Write sends a conditional write and decodes its answer, sending again at once when the
// store cannot be reached.
func (c *Client) Write(ctx context.Context, req []byte) (WriteResult, error) {
	for { // related "fieldwalk.go:154: retry loop" // want `retry loop goes round without waiting on every failure: once ctx is done it spins for ever`
		r, err := c.send(ctx, req)
		if err != nil {
			log.Printf("write to %s: %v", c.addr, err)
			continue
		}
		return readWriteResult(r)
	}
}

// Topology reads the store's shards.
func (c *Client) Topology(ctx context.Context) ([]int, error) {
	r, err := c.send(ctx, []byte{1})
	if err != nil {
		return nil, err
	}
	return readTopology(r)
}

// Version asks the store for its protocol version, five times at once when it cannot be
// reached. An answer without a version is an error of its own, but a good answer leaves the
// loop: it retries the request.
func (c *Client) Version(ctx context.Context) (int, error) {
	for attempt := 0; attempt < 5; attempt++ { // related "fieldwalk.go:177: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		r, err := c.send(ctx, []byte{2})
		if err != nil {
			log.Printf("version attempt %d: %v", attempt, err)
			continue
		}
		v, err := r.ReadInt()
		if err != nil {
			return 0, fmt.Errorf("read version: %w", err)
		}
		if v <= 0 {
			return 0, errors.New("store answered no version")
		}
		return v, nil
	}
	return 0, errors.New("store unreachable")
}
