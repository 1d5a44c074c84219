// Package idempotency is a stub of this project's runtime/idempotency, for the analyzers' tests.
package idempotency

// NewKey returns a new random idempotency key.
func NewKey() string { return "" }
