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
	"math"
	"net/http"
	"slices"
	"strings"
)

// Append appends the pair (name, value) to dst. Names and values are at most math.MaxInt32 bytes
// long (PostgreSQL's int4send is signed).
func Append(dst []byte, name string, value []byte) ([]byte, error) {
	return appendPair(dst, name, value)
}

func appendPair[V string | []byte](dst []byte, name string, value V) ([]byte, error) {
	if err := checkLen(name, value); err != nil {
		return dst, err
	}
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(name)))
	dst = append(dst, name...)
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(value)))
	return append(dst, value...), nil
}

func checkLen[V string | []byte](name string, value V) error {
	if len(name) > math.MaxInt32 || len(value) > math.MaxInt32 {
		return errors.New("pairs: a name or value longer than 2 GiB")
	}
	return nil
}

// Each calls fn with every pair of b, in order. The value aliases b. It returns an error, having
// called fn for the pairs before it, when b is not a list of pairs.
func Each(b []byte, fn func(name string, value []byte)) error {
	for len(b) > 0 {
		name, value, ok := pair(b)
		if !ok {
			return errors.New("pairs: truncated pair")
		}
		fn(string(name), value)
		b = b[8+len(name)+len(value):]
	}
	return nil
}

// pair returns the first pair of b.
func pair[T string | []byte](b T) (name, value T, ok bool) {
	name, rest, ok := field(b)
	if !ok {
		return name, value, false
	}
	value, _, ok = field(rest)
	return name, value, ok
}

func field[T string | []byte](b T) (f, rest T, ok bool) {
	if len(b) < 4 {
		return f, rest, false
	}
	n := uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
	if n > math.MaxInt32 || uint64(n) > uint64(len(b)-4) {
		return f, rest, false
	}
	return b[4 : 4+n], b[4+n:], true
}

// AppendHeader appends the values of h, one pair per value, names in sorted order. It grows dst
// once, with room for reserve more bytes after the header.
func AppendHeader(dst []byte, h http.Header, reserve int) ([]byte, error) {
	var small [16]entry
	entries, size := sorted(h, small[:0])
	return appendEntries(slices.Grow(dst, size+reserve), entries)
}

// entry is a name of a header and its values.
type entry struct {
	name   string
	values []string
}

// sorted appends the entries of h to entries, sorted by name, and returns them with the length
// of their pairs.
func sorted(h http.Header, entries []entry) ([]entry, int) {
	size := 0
	for name, vs := range h {
		entries = append(entries, entry{name, vs})
		for _, v := range vs {
			size += 8 + len(name) + len(v)
		}
	}
	slices.SortFunc(entries, func(a, b entry) int { return strings.Compare(a.name, b.name) })
	return entries, size
}

// appendEntries appends the pairs of the entries' values, in their order.
func appendEntries(dst []byte, entries []entry) ([]byte, error) {
	var err error
	for _, e := range entries {
		for _, v := range e.values {
			if dst, err = appendPair(dst, e.name, v); err != nil {
				return dst, err
			}
		}
	}
	return dst, nil
}

// Text returns the pairs that AppendHeader appends for h, then suffix, as one string (one
// allocation when the pairs take at most 512 bytes), and the length of the pairs.
func Text(h http.Header, suffix []byte) (string, int, error) {
	var small [16]entry
	entries, size := sorted(h, small[:0])
	var stack [512]byte
	buf := stack[:0]
	if size > len(stack) {
		buf = make([]byte, 0, size)
	}
	buf, err := appendEntries(buf, entries)
	if err != nil {
		return "", 0, err
	}
	var b strings.Builder
	b.Grow(len(buf) + len(suffix))
	b.Write(buf)
	b.Write(suffix)
	return b.String(), len(buf), nil
}

// Header decodes what AppendHeader wrote; nil for no pairs. It makes one string of b, which the
// names and values share, and one slice that the values of all names share.
func Header(b []byte) (http.Header, error) {
	if len(b) == 0 {
		return nil, nil
	}
	return HeaderOf(string(b), nil)
}

// HeaderOf decodes the pairs of s (what AppendHeader or Text wrote); nil for no pairs. The names
// and values are substrings of s, and the values of all names share one slice: values' array
// when it has room for them (values is empty), else a new one.
func HeaderOf(s string, values []string) (http.Header, error) {
	if len(s) == 0 {
		return nil, nil
	}
	n, names := 0, 0 // values, and runs of one name
	prev := ""
	for rest := s; len(rest) > 0; n++ {
		name, value, ok := pair(rest)
		if !ok {
			return nil, errors.New("pairs: truncated header")
		}
		if n == 0 || name != prev {
			names++
			prev = name
		}
		rest = rest[8+len(name)+len(value):]
	}
	h := make(http.Header, names)
	if cap(values) < n {
		values = make([]string, 0, n) // never grown: the names' slices share it
	}
	values = values[:0]
	cur, start := "", 0 // the current run of one name; start < 0: appending to an earlier run
	for pos := 0; pos < len(s); {
		name, value := "", ""
		name, pos = stringField(s, pos)
		value, pos = stringField(s, pos)
		switch {
		case len(values) > 0 && name == cur:
		case h[name] != nil: // a name met before, in an earlier run (not AppendHeader's order)
			cur, start = name, -1
		default:
			cur, start = name, len(values)
		}
		if start < 0 {
			h[name] = append(h[name], value)
			continue
		}
		values = append(values, value)
		h[name] = values[start:len(values):len(values)]
	}
	return h, nil
}

// stringField returns the length-prefixed field of s at pos (HeaderOf checked the framing), and
// the position after it.
func stringField(s string, pos int) (string, int) {
	n := int(s[pos])<<24 | int(s[pos+1])<<16 | int(s[pos+2])<<8 | int(s[pos+3])
	return s[pos+4 : pos+4+n], pos + 4 + n
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
