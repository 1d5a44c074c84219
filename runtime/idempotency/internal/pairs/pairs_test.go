package pairs

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRoundTrip(t *testing.T) {
	h := http.Header{"B": {"\xff\xfe", "", "a\x00b"}, "A": {"1"}}
	b, err := AppendHeader(nil, h, 0)
	require.NoError(t, err)
	got, err := Header(b)
	require.NoError(t, err)
	assert.Equal(t, h, got)

	b, err = Append(nil, "s", []byte(`1`))
	require.NoError(t, err)
	b, err = Append(b, "t", []byte("\x00"))
	require.NoError(t, err)
	b, err = Append(b, "s", []byte(`2`))
	require.NoError(t, err)
	steps, err := Steps(b)
	require.NoError(t, err)
	assert.Equal(t, map[string]json.RawMessage{"s": json.RawMessage(`2`), "t": json.RawMessage("\x00")}, steps)

	// Names out of AppendHeader's order still decode.
	b = nil
	for _, kv := range [][2]string{{"A", "1"}, {"B", "2"}, {"A", "3"}, {"A", "4"}, {"C", "5"}} {
		b, err = Append(b, kv[0], []byte(kv[1]))
		require.NoError(t, err)
	}
	got, err = Header(b)
	require.NoError(t, err)
	assert.Equal(t, http.Header{"A": {"1", "3", "4"}, "B": {"2"}, "C": {"5"}}, got)
	got["A"] = append(got["A"], "x")
	assert.Equal(t, []string{"2"}, got["B"], "appending to one name's values leaves the others alone")
	b, err = AppendHeader(nil, h, 10)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, cap(b), len(b)+10, "the room asked for")
	b, err = AppendHeader([]byte("prefix"), h, 0)
	require.NoError(t, err)
	got, err = Header(b[len("prefix"):])
	require.NoError(t, err)
	assert.Equal(t, h, got)

	none, err := Header(nil)
	assert.NoError(t, err)
	assert.Nil(t, none)
}

// Text writes what AppendHeader appends, followed by a suffix, and HeaderOf reads it back from
// the string, into the values' array when it has room.
func TestText(t *testing.T) {
	h := http.Header{"B": {"\xff\xfe", "", "a\x00b"}, "A": {"1"}}
	want, err := AppendHeader(nil, h, 0)
	require.NoError(t, err)
	text, n, err := Text(h, []byte("body\x00"))
	require.NoError(t, err)
	assert.Equal(t, string(want)+"body\x00", text)
	assert.Equal(t, len(want), n)

	var values [4]string
	got, err := HeaderOf(text[:n], values[:0])
	require.NoError(t, err)
	assert.Equal(t, h, got)
	assert.Equal(t, "1", values[0], "the values are in the array given")
	got, err = HeaderOf(text[:n], values[:0:2])
	require.NoError(t, err)
	assert.Equal(t, h, got, "an array too small is not used")

	big := http.Header{"Big": {strings.Repeat("v", 600)}, "A": {"1"}}
	want, err = AppendHeader(nil, big, 0)
	require.NoError(t, err)
	text, n, err = Text(big, nil)
	require.NoError(t, err)
	assert.Equal(t, string(want), text, "pairs longer than the stack buffer")
	assert.Equal(t, len(want), n)

	text, n, err = Text(nil, []byte("b"))
	require.NoError(t, err)
	assert.Equal(t, "b", text)
	assert.Zero(t, n)
	none, err := HeaderOf("", values[:0])
	assert.NoError(t, err)
	assert.Nil(t, none)
}

// The framing is what PostgreSQL's int4send(octet_length(x)) || x gives.
func TestFraming(t *testing.T) {
	b, err := Append(nil, "ab", []byte("xyz"))
	require.NoError(t, err)
	assert.Equal(t, []byte("\x00\x00\x00\x02ab\x00\x00\x00\x03xyz"), b)
}

func TestMalformed(t *testing.T) {
	for _, b := range []string{"\x00", "\x00\x00\x00\x05ab", "\x00\x00\x00\x01a", "\x00\x00\x00\x01a\x00\x00\x00\x09x", "\xff\xff\xff\xff"} {
		_, err := Steps([]byte(b))
		assert.Error(t, err, "%q", b)
		_, err = Header([]byte(b))
		assert.Error(t, err, "%q", b)
		_, err = HeaderOf(b, nil)
		assert.Error(t, err, "%q", b)
	}
}

func FuzzEach(f *testing.F) {
	f.Add([]byte("\x00\x00\x00\x02ab\x00\x00\x00\x03xyz"))
	f.Fuzz(func(t *testing.T, b []byte) {
		var again []byte
		err := Each(b, func(name string, value []byte) {
			again, _ = Append(again, name, value)
		})
		if err == nil {
			require.Equal(t, b, again)
		}
	})
}
