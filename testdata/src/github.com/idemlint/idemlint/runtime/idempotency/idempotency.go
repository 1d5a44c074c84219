// Package idempotency is a stub of this project's runtime/idempotency, for the analyzers' tests.
package idempotency

// NewKey returns a new random idempotency key.
func NewKey() string { return "" }

// DeriveKey returns the key for a downstream call of the operation keyed by key.
func DeriveKey(key, purpose string) string { return key + ":" + purpose }
