package idempotency

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxKeyLen is the longest accepted key, in characters (after unquoting).
const MaxKeyLen = 255

// KeyError explains why an Idempotency-Key header value was rejected. Its message is meant for
// the client (it is the detail of the 400 response).
type KeyError struct {
	Reason string
}

func (e *KeyError) Error() string { return "invalid Idempotency-Key: " + e.Reason }

// ParseKey parses the value of an Idempotency-Key header and returns the key.
//
// Two forms are accepted:
//   - the RFC 8941 structured-field string that the IETF Idempotency-Key draft specifies:
//     a double-quoted string of printable ASCII in which only \" and \\ are escapes,
//     for example "8e03978e-40d5-43e8-bc93-6894a57f9324";
//   - a bare token, as most clients send it: visible ASCII without spaces, double quotes,
//     backslashes, commas or semicolons, for example 8e03978e-40d5-43e8-bc93-6894a57f9324.
//
// Both forms give the same key for the same characters. The key must be 1 to MaxKeyLen
// characters long. Lists (a comma) and parameters (a semicolon) are rejected. Surrounding spaces
// and tabs are ignored.
func ParseKey(value string) (string, error) {
	v := strings.Trim(value, " \t")
	if v == "" {
		return "", &KeyError{Reason: "the key is empty"}
	}
	if v[0] == '"' {
		return parseQuotedKey(v)
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == ',':
			return "", &KeyError{Reason: "the header must hold one key, not a list"}
		case c == ';':
			return "", &KeyError{Reason: "parameters (;...) are not supported"}
		case c == ' ' || c == '\t':
			return "", &KeyError{Reason: fmt.Sprintf("a bare key cannot contain spaces (at position %d); send it as a quoted string", i+1)}
		case c == '"' || c == '\\':
			return "", &KeyError{Reason: fmt.Sprintf("a bare key cannot contain %q (at position %d); send it as a quoted string with escapes", c, i+1)}
		case c < 0x21 || c > 0x7e:
			return "", &KeyError{Reason: fmt.Sprintf("character at position %d is not printable ASCII", i+1)}
		}
	}
	if len(v) > MaxKeyLen {
		return "", &KeyError{Reason: fmt.Sprintf("the key is %d characters long; the limit is %d", len(v), MaxKeyLen)}
	}
	return v, nil
}

// parseQuotedKey parses an RFC 8941 sf-string (v starts with '"').
func parseQuotedKey(v string) (string, error) {
	var b strings.Builder
	i := 1
	for ; i < len(v); i++ {
		c := v[i]
		if c == '\\' {
			i++
			if i == len(v) {
				break
			}
			if v[i] != '"' && v[i] != '\\' {
				return "", &KeyError{Reason: fmt.Sprintf("invalid escape \\%c at position %d: only \\\" and \\\\ are allowed", v[i], i)}
			}
			b.WriteByte(v[i])
			continue
		}
		if c == '"' {
			break
		}
		if c < 0x20 || c > 0x7e {
			return "", &KeyError{Reason: fmt.Sprintf("character at position %d is not printable ASCII", i+1)}
		}
		b.WriteByte(c)
	}
	if i >= len(v) {
		return "", &KeyError{Reason: "unterminated quoted string"}
	}
	if rest := strings.TrimLeft(v[i+1:], " \t"); rest != "" {
		switch rest[0] {
		case ',':
			return "", &KeyError{Reason: "the header must hold one key, not a list"}
		case ';':
			return "", &KeyError{Reason: "parameters (;...) are not supported"}
		}
		return "", &KeyError{Reason: "unexpected characters after the quoted key"}
	}
	key := b.String()
	if key == "" {
		return "", &KeyError{Reason: "the key is empty"}
	}
	if len(key) > MaxKeyLen {
		return "", &KeyError{Reason: fmt.Sprintf("the key is %d characters long; the limit is %d", len(key), MaxKeyLen)}
	}
	return key, nil
}

// MaxScopeLen is the longest accepted scope (tenant), in bytes.
const MaxScopeLen = 255

// ScopeError explains why a scope (the tenant a key belongs to) was rejected. Its message is
// meant for the client (the detail of the 400 response).
type ScopeError struct {
	Reason string
}

func (e *ScopeError) Error() string { return "invalid tenant: " + e.Reason }

// ValidateScope reports whether scope can hold keys: 1 to MaxScopeLen bytes of UTF-8 text without
// control characters. It returns a *ScopeError otherwise. Runner.Do and Middleware check it, so
// that every store sees the same scopes (PostgreSQL text cannot hold a NUL or invalid UTF-8).
func ValidateScope(scope string) error {
	if reason := textProblem(scope, MaxScopeLen); reason != "" {
		return &ScopeError{Reason: reason}
	}
	return nil
}

// ValidateKey reports whether key (already parsed, see ParseKey) can be stored: 1 to MaxKeyLen
// bytes of UTF-8 text without control characters. It returns a *KeyError otherwise. Runner.Do
// checks it; every key ParseKey returns passes.
func ValidateKey(key string) error {
	if reason := textProblem(key, MaxKeyLen); reason != "" {
		return &KeyError{Reason: reason}
	}
	return nil
}

// MaxFingerprintLen is the longest accepted fingerprint, in bytes.
const MaxFingerprintLen = 1024

// FingerprintError explains why Runner.Do rejected a fingerprint.
type FingerprintError struct {
	Reason string
}

func (e *FingerprintError) Error() string {
	return "invalid fingerprint: " + e.Reason + " (hex-encode a binary digest, as Fingerprint does)"
}

// ValidateFingerprint reports whether fingerprint can be stored: 1 to MaxFingerprintLen bytes of
// UTF-8 text without control characters. It returns a *FingerprintError otherwise. Runner.Do
// checks it, so that every store sees the same fingerprints (a raw digest is not text: PostgreSQL
// cannot hold it); every fingerprint Fingerprint returns passes.
func ValidateFingerprint(fingerprint string) error {
	if reason := textProblem(fingerprint, MaxFingerprintLen); reason != "" {
		return &FingerprintError{Reason: reason}
	}
	return nil
}

// textProblem says what makes s unfit as a scope, key or fingerprint, or returns "".
func textProblem(s string, limit int) string {
	switch {
	case s == "":
		return "it is empty"
	case len(s) > limit:
		return fmt.Sprintf("it is %d bytes long; the limit is %d", len(s), limit)
	}
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			return fmt.Sprintf("it is not valid UTF-8 (at byte %d)", i+1)
		case unicode.IsControl(r):
			return fmt.Sprintf("it contains a control character (U+%04X at byte %d)", r, i+1)
		}
	}
	return ""
}

// NewKey returns a new random idempotency key: 26 characters of base32 (130 bits from
// crypto/rand), valid in both forms ParseKey accepts. Make it once per logical operation,
// before the first attempt, and send it on every retry.
func NewKey() string { return rand.Text() }

// DeriveKey returns the idempotency key for a downstream call that is part of the operation
// keyed by key: key + ":" + purpose. A retry of the operation derives the same key, so the
// downstream service deduplicates the call ("charge" made twice is charged once).
//
// Inside an operation prefer DerivedKey(ctx, purpose), which also separates tenants.
func DeriveKey(key, purpose string) string {
	return key + ":" + purpose
}

// scopedKeyDigest identifies (scope, key) across tenants in 32 hex characters (128 bits of
// SHA-256). The scope is length-prefixed, so the encoding is unambiguous.
func scopedKeyDigest(scope, key string) string {
	h := sha256.New()
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(scope)))
	h.Write(n[:])
	h.Write([]byte(scope))
	h.Write([]byte(key))
	var sum [sha256.Size]byte
	return hex.EncodeToString(h.Sum(sum[:0])[:16])
}
