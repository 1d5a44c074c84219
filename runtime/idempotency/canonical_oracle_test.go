package idempotency_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"

	"github.com/idemlint/idemlint/runtime/idempotency"
)

// oracleCanonicalJSON is the first implementation of the canonical form (encoding/json decoding
// into interface values, then re-encoding). Fingerprints are persisted, so the one-pass
// canonicaliser must agree with it on every input: this is the reference the fuzz test compares
// against.
func oracleCanonicalJSON(body []byte) ([]byte, bool) {
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
		return nil, false
	}
	var buf bytes.Buffer
	oracleWrite(&buf, v)
	return buf.Bytes(), true
}

func oracleWrite(buf *bytes.Buffer, v any) {
	switch v := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		buf.WriteString(map[bool]string{true: "true", false: "false"}[v])
	case json.Number:
		buf.WriteString(string(v))
	case string:
		oracleString(buf, v)
	case []any:
		buf.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				buf.WriteByte(',')
			}
			oracleWrite(buf, e)
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
			oracleString(buf, k)
			buf.WriteByte(':')
			oracleWrite(buf, v[k])
		}
		buf.WriteByte('}')
	}
}

func oracleString(buf *bytes.Buffer, s string) {
	const hexDigits = "0123456789abcdef"
	buf.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			buf.WriteByte('\\')
			buf.WriteByte(c)
		case c < 0x20:
			buf.WriteString(`\u00`)
			buf.WriteByte(hexDigits[c>>4])
			buf.WriteByte(hexDigits[c&0xf])
		default:
			buf.WriteByte(c)
		}
	}
	buf.WriteByte('"')
}

var canonicalSeeds = []string{
	``, ` `, `null`, `true`, `false`, `nul`, `truex`, `0`, `-0`, `01`, `1.`, `.5`, `-`, `1e`, `1e+`, `1E-7`, `-12.50e+3`,
	`"a"`, `"\u00e9\ud83d\ude00"`, `"\ud800"`, `"\udc00\ud800x"`, `"\ud800\u0041"`, `"\u12"`, `"\x"`, `"\'"`, `"a` + "\t" + `"`,
	`"\"\\\/\b\f\n\r\t"`, `{"b":1,"a":2}`, `{"a":1,"a":2}`, `{"a":{"y":[1,{"q":true,"p":null}],"x":"s"}}`,
	`{"a":1,}`, `[1,]`, `[]`, `{}`, `[ ]`, `{ }`, ` {"a" : [ 1 , 2 ] } `, `{"a":1} {"b":2}`, `{"a":1}x`, "\xff",
	`{"\u0061":1,"a":2}`, `{"":0,"\u0000":1}`, `[[[[[]]]]]`, `{"a":"\u2028"}`, `[1,2` + "\v" + `]`, "\v1",
	strings.Repeat("[", 10000) + strings.Repeat("]", 10000), strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	strings.Repeat(`{"a":`, 3000) + "1" + strings.Repeat("}", 3000),
}

func TestCanonicalJSONAgreesWithTheOracle(t *testing.T) {
	for _, s := range canonicalSeeds {
		want, wantOK := oracleCanonicalJSON([]byte(s))
		got, ok := idempotency.CanonicalJSON([]byte(s))
		if assert.Equal(t, wantOK, ok, "%.80q", s) && ok {
			assert.Equal(t, string(want), string(got), "%.80q", s)
		}
	}
}

func FuzzCanonicalJSON(f *testing.F) {
	for _, s := range canonicalSeeds {
		if len(s) < 1000 { // the deep ones are for the test above: they slow fuzzing down
			f.Add([]byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		want, wantOK := oracleCanonicalJSON(body)
		got, ok := idempotency.CanonicalJSON(body)
		if ok != wantOK || !bytes.Equal(got, want) {
			t.Fatalf("%q: got %q %v, want %q %v", body, got, ok, want, wantOK)
		}
	})
}
