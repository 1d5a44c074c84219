package idempotency

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Fingerprint identifies what a request asks for: SHA-256 over the method, the route and the
// canonical form of the body, as 64 hex characters.
//
// A body that is one valid JSON value is canonicalised first: object members sorted by name,
// insignificant whitespace removed, strings re-encoded with one escaping convention. Two bodies
// that differ only in key order or whitespace therefore have the same fingerprint. Numbers keep
// their literal spelling (1000 and 1e3 differ), and with duplicate member names the last one wins,
// as in encoding/json. Any other body (not JSON, or invalid) is hashed as raw bytes; the two kinds
// are domain-separated so that they never collide.
func Fingerprint(method, route string, body []byte) string {
	c := canons.Get().(*canon)
	defer c.put()
	c.out = appendField(c.out[:0], "idempotency/v1")
	c.out = appendUpperField(c.out, method)
	c.out = appendField(c.out, route)
	prefix := len(c.out)
	c.out = appendField(c.out, "json")
	if !c.canonical(body) {
		c.out = appendField(c.out[:prefix], "raw")
		c.out = append(c.out, body...)
	}
	sum := sha256.Sum256(c.out)
	var hexSum [2 * sha256.Size]byte
	for i, b := range sum { // hex.Encode, without its bounds checks
		hexSum[2*i], hexSum[2*i+1] = hexDigits[b>>4], hexDigits[b&0xf]
	}
	if cap(c.out) > maxPooled {
		c.out = nil // do not keep a huge body's buffer
	}
	return string(hexSum[:])
}

const hexDigits = "0123456789abcdef"

// maxPooled is the largest buffer a pooled canon keeps.
const maxPooled = 64 << 10

// appendField appends s, preceded by its length as 8 bytes big-endian.
func appendField(dst []byte, s string) []byte {
	dst = binary.BigEndian.AppendUint64(dst, uint64(len(s)))
	return append(dst, s...)
}

// appendUpperField is appendField of strings.ToUpper(s), without making the upper-case copy for
// ASCII (methods are ASCII).
func appendUpperField(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return appendField(dst, strings.ToUpper(s))
		}
	}
	dst = binary.BigEndian.AppendUint64(dst, uint64(len(s)))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// CanonicalJSON returns the canonical form of a JSON document (see Fingerprint) and whether body
// was one valid JSON value.
func CanonicalJSON(body []byte) ([]byte, bool) {
	c := canons.Get().(*canon)
	defer c.put()
	c.out = c.out[:0]
	if !c.canonical(body) {
		return nil, false
	}
	return bytes.Clone(c.out), true
}

// canons recycles the scratch space of canonicalisation.
var canons = sync.Pool{New: func() any { return new(canon) }}

// put returns c to the pool, keeping no reference to its input.
func (c *canon) put() {
	clear(c.members) // what a failed object left
	c.in, c.members = nil, c.members[:0]
	canons.Put(c)
}

// maxDepth is the nesting that encoding/json accepts, so that the same bodies are JSON for both
// (fingerprints are persisted: what was JSON must stay JSON).
const maxDepth = 10000

// canon canonicalises a JSON document into out, in one pass and without allocating once its
// buffers have grown: members and values are written in document order, and an object whose
// members did not come sorted and distinct is rewritten when it closes, its members sorted by
// their decoded names (the last of equal names wins, as in encoding/json). It accepts exactly
// what encoding/json accepts.
type canon struct {
	in      []byte
	pos     int
	depth   int
	out     []byte   // the canonical document
	keys    []byte   // decoded member names with escapes, of the open objects
	members []member // members of the open objects, innermost last
	moved   []byte   // scratch for rewriting an object
}

// member is one object member: its decoded name (in the input when it holds no escapes, else in
// keys), its canonical text ("name":value) in out.
type member struct {
	key  []byte
	text span
}

type span struct{ start, end int }

// canonical appends the canonical form of body to c.out, and reports whether body is one JSON
// value (with nothing but whitespace around it). On false, c.out holds garbage past its start.
func (c *canon) canonical(body []byte) bool {
	if !utf8.Valid(body) {
		return false
	}
	c.in, c.pos, c.depth = body, 0, 0
	c.keys, c.members = c.keys[:0], c.members[:0]
	c.space()
	if c.pos == len(c.in) || !c.value() {
		return false
	}
	c.space()
	return c.pos == len(c.in)
}

func (c *canon) space() {
	for c.pos < len(c.in) {
		switch c.in[c.pos] {
		case ' ', '\t', '\n', '\r':
			c.pos++
		default:
			return
		}
	}
}

func (c *canon) value() bool {
	if c.pos >= len(c.in) {
		return false
	}
	switch ch := c.in[c.pos]; {
	case ch == '{':
		return c.object()
	case ch == '[':
		return c.array()
	case ch == '"':
		start := len(c.keys)
		if _, ok := c.string(); !ok {
			return false
		}
		c.keys = c.keys[:start]
		return true
	case ch == '-' || '0' <= ch && ch <= '9':
		return c.number()
	}
	for _, lit := range [...]string{"true", "false", "null"} {
		if bytes.HasPrefix(c.in[c.pos:], []byte(lit)) {
			c.pos += len(lit)
			c.out = append(c.out, lit...)
			return true
		}
	}
	return false
}

func (c *canon) enter() bool {
	c.depth++
	c.pos++
	return c.depth <= maxDepth
}

// leave closes the array or object being read with b.
func (c *canon) leave(b byte) {
	c.pos++
	c.depth--
	c.out = append(c.out, b)
}

func (c *canon) array() bool {
	if !c.enter() {
		return false
	}
	c.out = append(c.out, '[')
	c.space()
	if c.pos < len(c.in) && c.in[c.pos] == ']' {
		c.leave(']')
		return true
	}
	for {
		c.space()
		if !c.value() {
			return false
		}
		c.space()
		if c.pos >= len(c.in) {
			return false
		}
		switch c.in[c.pos] {
		case ',':
			c.pos++
			c.out = append(c.out, ',')
		case ']':
			c.leave(']')
			return true
		default:
			return false
		}
	}
}

func (c *canon) object() bool {
	if !c.enter() {
		return false
	}
	objStart, first, keysStart := len(c.out), len(c.members), len(c.keys)
	c.out = append(c.out, '{')
	c.space()
	if c.pos < len(c.in) && c.in[c.pos] == '}' {
		c.leave('}')
		return true
	}
	sorted := true // the members came sorted and distinct: what was written is canonical
	for {
		c.space()
		if c.pos >= len(c.in) || c.in[c.pos] != '"' {
			return false
		}
		if len(c.members) > first {
			c.out = append(c.out, ',')
		}
		m := member{text: span{start: len(c.out)}}
		var ok bool
		if m.key, ok = c.string(); !ok {
			return false
		}
		c.out = append(c.out, ':')
		c.space()
		if c.pos >= len(c.in) || c.in[c.pos] != ':' {
			return false
		}
		c.pos++
		c.space()
		if !c.value() {
			return false
		}
		m.text.end = len(c.out)
		if n := len(c.members); n > first && sorted {
			sorted = bytes.Compare(c.members[n-1].key, m.key) < 0
		}
		c.members = append(c.members, m)
		c.space()
		if c.pos >= len(c.in) {
			return false
		}
		if c.in[c.pos] == ',' {
			c.pos++
			continue
		}
		if c.in[c.pos] != '}' {
			return false
		}
		c.pos++
		c.depth--
		break
	}
	c.out = append(c.out, '}')
	if !sorted {
		c.sortMembers(objStart, c.members[first:])
	}
	clear(c.members[first:]) // their names may be slices of the input: keep none in the pool
	c.members, c.keys = c.members[:first], c.keys[:keysStart]
	return true
}

// sortMembers rewrites the object at out[start:], whose members ms were written in document
// order, with its members sorted by name, the last of equal names kept.
func (c *canon) sortMembers(start int, ms []member) {
	slices.SortStableFunc(ms, func(a, b member) int { return bytes.Compare(a.key, b.key) })
	c.moved = append(c.moved[:0], c.out[start:]...)
	c.out = append(c.out[:start], '{')
	wrote := false
	for i, m := range ms {
		if i+1 < len(ms) && bytes.Equal(m.key, ms[i+1].key) {
			continue // a later member of the same name wins
		}
		if wrote {
			c.out = append(c.out, ',')
		}
		wrote = true
		c.out = append(c.out, c.moved[m.text.start-start:m.text.end-start]...)
	}
	c.out = append(c.out, '}')
}

// number copies a number literal, checking its grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (c *canon) number() bool {
	start := c.pos
	c.skip('-')
	switch {
	case c.skip('0'):
	case c.digits() == 0:
		return false
	}
	if c.skip('.') && c.digits() == 0 {
		return false
	}
	if c.skip('e') || c.skip('E') {
		if !c.skip('+') {
			c.skip('-')
		}
		if c.digits() == 0 {
			return false
		}
	}
	c.out = append(c.out, c.in[start:c.pos]...)
	return true
}

func (c *canon) skip(ch byte) bool {
	if c.pos < len(c.in) && c.in[c.pos] == ch {
		c.pos++
		return true
	}
	return false
}

func (c *canon) digits() int {
	n := 0
	for c.pos < len(c.in) && '0' <= c.in[c.pos] && c.in[c.pos] <= '9' {
		c.pos++
		n++
	}
	return n
}

// string appends the canonical form of the string at c.pos to c.out, and returns its decoded
// value: a slice of the input when the string holds no escapes (it is then canonical as written),
// else of c.keys, which it was decoded into.
func (c *canon) string() ([]byte, bool) {
	start, end := c.pos, c.pos+1
	for end < len(c.in) && c.in[end] >= 0x20 && c.in[end] != '"' && c.in[end] != '\\' {
		end++
	}
	if end < len(c.in) && c.in[end] == '"' {
		c.pos = end + 1
		c.out = append(c.out, c.in[start:c.pos]...)
		return c.in[start+1 : end], true
	}
	decoded := len(c.keys)
	if !c.decodeString() {
		return nil, false
	}
	c.out = appendString(c.out, c.keys[decoded:])
	return c.keys[decoded:], true
}

// decodeString decodes the string at c.pos into c.keys, as encoding/json does (a lone surrogate
// becomes U+FFFD).
func (c *canon) decodeString() bool {
	c.pos++ // the opening quote
	for c.pos < len(c.in) {
		ch := c.in[c.pos]
		switch {
		case ch == '"':
			c.pos++
			return true
		case ch < 0x20:
			return false
		case ch != '\\':
			end := c.pos + 1 // the run of characters that stand for themselves, copied at once
			for end < len(c.in) && c.in[end] >= 0x20 && c.in[end] != '"' && c.in[end] != '\\' {
				end++
			}
			c.keys = append(c.keys, c.in[c.pos:end]...)
			c.pos = end
			continue
		}
		if c.pos+1 >= len(c.in) {
			return false
		}
		switch esc := c.in[c.pos+1]; esc {
		case '"', '\\', '/':
			c.keys = append(c.keys, esc)
		case 'b':
			c.keys = append(c.keys, '\b')
		case 'f':
			c.keys = append(c.keys, '\f')
		case 'n':
			c.keys = append(c.keys, '\n')
		case 'r':
			c.keys = append(c.keys, '\r')
		case 't':
			c.keys = append(c.keys, '\t')
		case 'u':
			r := hex4(c.in[c.pos:])
			if r < 0 {
				return false
			}
			c.pos += 6
			if utf16.IsSurrogate(r) {
				if dec := utf16.DecodeRune(r, hex4(c.in[c.pos:])); dec != unicode.ReplacementChar {
					c.pos += 6
					r = dec
				} else {
					r = unicode.ReplacementChar
				}
			}
			c.keys = utf8.AppendRune(c.keys, r)
			continue
		default:
			return false
		}
		c.pos += 2
	}
	return false
}

// hex4 decodes \uXXXX at the start of s, or returns -1.
func hex4(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for _, ch := range s[2:6] {
		switch {
		case '0' <= ch && ch <= '9':
			ch -= '0'
		case 'a' <= ch && ch <= 'f':
			ch = ch - 'a' + 10
		case 'A' <= ch && ch <= 'F':
			ch = ch - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(ch)
	}
	return r
}

// appendString appends s as a JSON string: only '"', '\\' and control characters are escaped.
func appendString(dst, s []byte) []byte {
	const hexDigits = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i, ch := range s {
		if ch >= 0x20 && ch != '"' && ch != '\\' {
			continue
		}
		dst = append(dst, s[start:i]...)
		switch ch {
		case '"', '\\':
			dst = append(dst, '\\', ch)
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[ch>>4], hexDigits[ch&0xf])
		}
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
