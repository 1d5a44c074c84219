package idempotency

import (
	"net/http"
	"strings"
	"testing"
)

// isCanonical(key) says true only when CanonicalHeaderKey(key) is key, and does for every valid
// header name that CanonicalHeaderKey leaves alone.
func FuzzIsCanonical(f *testing.F) {
	for _, key := range []string{"Content-Type", "content-type", "Etag", "ETag", "X-A-B", "x", "X", "-a", "A-", "A--b", "Ä-b", "A b", "", "Content-type", "1a", "A_b"} {
		f.Add(key)
	}
	f.Fuzz(func(t *testing.T, key string) {
		canonical := http.CanonicalHeaderKey(key) == key
		if isCanonical(key) && !canonical {
			t.Fatalf("isCanonical(%q), but CanonicalHeaderKey gives %q", key, http.CanonicalHeaderKey(key))
		}
		if canonical && validName(key) && !isCanonical(key) {
			t.Fatalf("isCanonical(%q) is false, but CanonicalHeaderKey leaves it alone", key)
		}
	})
}

// validName reports whether key is an RFC 9110 token.
func validName(key string) bool {
	if key == "" {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c < 0x7f && c > ' ' && strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return true
}
