package idempotency

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
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
	h := sha256.New()
	writeField(h, "idempotency/v1")
	writeField(h, strings.ToUpper(method))
	writeField(h, route)
	if canon, ok := canonicalJSON(body); ok {
		writeField(h, "json")
		h.Write(canon)
	} else {
		writeField(h, "raw")
		h.Write(body)
	}
	var sum [sha256.Size]byte
	return hex.EncodeToString(h.Sum(sum[:0]))
}

func writeField(w io.Writer, s string) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(s)))
	w.Write(n[:])
	io.WriteString(w, s)
}

// CanonicalJSON returns the canonical form of a JSON document (see Fingerprint) and whether body
// was one valid JSON value.
func CanonicalJSON(body []byte) ([]byte, bool) { return canonicalJSON(body) }

func canonicalJSON(body []byte) ([]byte, bool) {
	if len(bytes.TrimSpace(body)) == 0 || !utf8.Valid(body) {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, false // trailing data
	}
	var buf bytes.Buffer
	buf.Grow(len(body))
	if err := writeCanonical(&buf, v); err != nil {
		return nil, false
	}
	return buf.Bytes(), true
}

func writeCanonical(buf *bytes.Buffer, v any) error {
	switch v := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		if v {
			buf.WriteString("true")
		} else {
			buf.WriteString("false")
		}
	case json.Number:
		buf.WriteString(string(v))
	case string:
		return writeString(buf, v)
	case []any:
		buf.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeCanonical(buf, e); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeString(buf, k); err != nil {
				return err
			}
			buf.WriteByte(':')
			if err := writeCanonical(buf, v[k]); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	default:
		return errors.New("unexpected JSON value")
	}
	return nil
}

// writeString writes s as a JSON string: only '"', '\\' and control characters are escaped.
func writeString(buf *bytes.Buffer, s string) error {
	const hexDigits = "0123456789abcdef"
	buf.WriteByte('"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		buf.WriteString(s[start:i])
		switch c {
		case '"', '\\':
			buf.WriteByte('\\')
			buf.WriteByte(c)
		default:
			buf.WriteString(`\u00`)
			buf.WriteByte(hexDigits[c>>4])
			buf.WriteByte(hexDigits[c&0xf])
		}
		start = i + 1
	}
	buf.WriteString(s[start:])
	buf.WriteByte('"')
	return nil
}
