// Package pairs encodes lists of (name, value) byte strings, for stores that keep recovery points
// and response headers as bytes, so that every value comes back exactly as it was given (JSON
// cannot hold bytes that are not UTF-8, and PostgreSQL's jsonb refuses \u0000).
//
// Each pair is its name and then its value, each preceded by its length as a 4-byte big-endian
// integer. PostgreSQL builds the same framing with int4send(octet_length(x)) || x, and appending
// to a bytea column appends a pair atomically.
package pairs

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
)

// Append appends the pair (name, value) to dst. Names and values are at most math.MaxInt32 bytes
// long (PostgreSQL's int4send is signed).
func Append(dst []byte, name string, value []byte) ([]byte, error) {
	if len(name) > math.MaxInt32 || len(value) > math.MaxInt32 {
		return dst, errors.New("pairs: a name or value longer than 2 GiB")
	}
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(name)))
	dst = append(dst, name...)
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(value)))
	return append(dst, value...), nil
}

// Each calls fn with every pair of b, in order. The value aliases b. It returns an error, having
// called fn for the pairs before it, when b is not a list of pairs.
func Each(b []byte, fn func(name string, value []byte)) error {
	for len(b) > 0 {
		name, rest, ok := field(b)
		if !ok {
			return errors.New("pairs: truncated name")
		}
		value, rest, ok := field(rest)
		if !ok {
			return fmt.Errorf("pairs: truncated value of %q", name)
		}
		fn(string(name), value)
		b = rest
	}
	return nil
}

func field(b []byte) (f, rest []byte, ok bool) {
	if len(b) < 4 {
		return nil, nil, false
	}
	n := binary.BigEndian.Uint32(b)
	if n > math.MaxInt32 || uint64(n) > uint64(len(b)-4) {
		return nil, nil, false
	}
	return b[4 : 4+n], b[4+n:], true
}

// AppendHeader appends the values of h, one pair per value, names in sorted order.
func AppendHeader(dst []byte, h http.Header) ([]byte, error) {
	names := make([]string, 0, len(h))
	for name := range h {
		names = append(names, name)
	}
	slices.Sort(names)
	var err error
	for _, name := range names {
		for _, v := range h[name] {
			if dst, err = Append(dst, name, []byte(v)); err != nil {
				return dst, err
			}
		}
	}
	return dst, nil
}

// Header decodes what AppendHeader wrote; nil for no pairs.
func Header(b []byte) (http.Header, error) {
	var h http.Header
	err := Each(b, func(name string, value []byte) {
		if h == nil {
			h = make(http.Header)
		}
		h[name] = append(h[name], string(value))
	})
	return h, err
}

// Steps decodes a list of recovery points, each step's name and result: a step recorded again
// later in the list replaces the earlier result. Nil for no pairs; the results are copies.
func Steps(b []byte) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	err := Each(b, func(name string, value []byte) {
		if m == nil {
			m = make(map[string]json.RawMessage)
		}
		m[name] = append(json.RawMessage{}, value...)
	})
	return m, err
}
