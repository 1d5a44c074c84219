package idempotency_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/idemlint/idemlint/runtime/idempotency"
)

func TestParseKey(t *testing.T) {
	long := strings.Repeat("k", idempotency.MaxKeyLen)
	ok := []struct{ in, want string }{
		{"8e03978e-40d5-43e8-bc93-6894a57f9324", "8e03978e-40d5-43e8-bc93-6894a57f9324"},
		{`"8e03978e-40d5-43e8-bc93-6894a57f9324"`, "8e03978e-40d5-43e8-bc93-6894a57f9324"},
		{" \tabc \t", "abc"},
		{`"a b"`, "a b"},
		{`"a\"b\\c"`, `a"b\c`},
		{"order:42/charge=1+x~y_z.w!#$%&'*^`|", "order:42/charge=1+x~y_z.w!#$%&'*^`|"},
		{`"x" `, "x"},
		{long, long},
		{`"` + long + `"`, long},
	}
	for _, tc := range ok {
		got, err := idempotency.ParseKey(tc.in)
		if assert.NoError(t, err, "%q", tc.in) {
			assert.Equal(t, tc.want, got, "%q", tc.in)
		}
	}

	bad := []struct{ in, reason string }{
		{"", "the key is empty"},
		{"   ", "the key is empty"},
		{`""`, "the key is empty"},
		{long + "k", "the key is 256 characters long; the limit is 255"},
		{`"` + long + `k"`, "the key is 256 characters long; the limit is 255"},
		{"a,b", "one key, not a list"},
		{`"a", "b"`, "one key, not a list"},
		{"a;x=1", "parameters (;...) are not supported"},
		{`"a";x=1`, "parameters (;...) are not supported"},
		{"a b", "cannot contain spaces (at position 2)"},
		{`a"b`, "cannot contain '\"' (at position 2)"},
		{`a\b`, "cannot contain '\\\\' (at position 2)"},
		{`"abc`, "unterminated quoted string"},
		{`"abc\`, "unterminated quoted string"},
		{`"a\qb"`, `invalid escape \q`},
		{`"abc"x`, "unexpected characters after the quoted key"},
		{"caf\u00e9", "position 4 is not printable ASCII"},
		{"\"caf\u00e9\"", "position 5 is not printable ASCII"},
		{"a\x01b", "position 2 is not printable ASCII"},
		{"a\x7fb", "position 2 is not printable ASCII"},
	}
	for _, tc := range bad {
		_, err := idempotency.ParseKey(tc.in)
		var ke *idempotency.KeyError
		if assert.ErrorAs(t, err, &ke, "%q", tc.in) {
			assert.Contains(t, ke.Error(), tc.reason, "%q", tc.in)
			assert.True(t, strings.HasPrefix(ke.Error(), "invalid Idempotency-Key: "))
		}
	}
}

func TestDeriveKey(t *testing.T) {
	assert.Equal(t, "k1:charge", idempotency.DeriveKey("k1", "charge"))
	assert.NotEqual(t, idempotency.DeriveKey("k1", "charge"), idempotency.DeriveKey("k1", "refund"))
}

func FuzzParseKey(f *testing.F) {
	for _, s := range []string{"abc", `"a\"b"`, `"x";p`, "a,b", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		key, err := idempotency.ParseKey(in)
		if err != nil {
			return
		}
		require.NotEmpty(t, key)
		require.LessOrEqual(t, len(key), idempotency.MaxKeyLen)
		require.NoError(t, idempotency.ValidateKey(key), "the middleware does not validate ParseKey's keys again")
		for i := 0; i < len(key); i++ {
			require.True(t, key[i] >= 0x20 && key[i] <= 0x7e, "key %q has a non-printable byte", key)
		}
		// The quoted form of any accepted key parses back to the same key.
		quoted := `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(key) + `"`
		again, err := idempotency.ParseKey(quoted)
		require.NoError(t, err)
		require.Equal(t, key, again)
	})
}

func TestNewKey(t *testing.T) {
	seen := make(map[string]bool)
	for range 1000 {
		k := idempotency.NewKey()
		if len(k) != 26 {
			t.Fatalf("NewKey() = %q: want 26 characters", k)
		}
		if parsed, err := idempotency.ParseKey(k); err != nil || parsed != k {
			t.Fatalf("ParseKey(NewKey() = %q) = %q, %v", k, parsed, err)
		}
		if seen[k] {
			t.Fatalf("NewKey() repeated %q", k)
		}
		seen[k] = true
	}
}
