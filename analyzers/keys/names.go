package keys

import (
	"reflect"
	"strings"
	"unicode"
)

// Normalize folds case and drops everything but letters and digits, so that a header,
// a field, a JSON key and a setter name compare equal: "Idempotency-Key", "idempotency_key"
// and "IdempotencyKey" all become "idempotencykey".
func Normalize(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// jsonName returns the name a struct tag gives a field in JSON (or form/url encoding).
func jsonName(tag string) []string {
	var names []string
	for _, key := range []string{"json", "form", "url", "query"} {
		if v, ok := reflect.StructTag(tag).Lookup(key); ok {
			if name, _, _ := strings.Cut(v, ","); name != "" && name != "-" {
				names = append(names, name)
			}
		}
	}
	return names
}
