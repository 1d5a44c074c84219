// Package lib exports key facts: a generator, a function that sends its parameter as a key,
// and one that mints a key on every call.
package lib

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
)

// NewKey returns a fresh key.
func NewKey() string { // want NewKey:"generator: rand.Read"
	var b [16]byte
	_, _ = rand.Read(b[:]) // want `rand.Read: not sent as a key; returned`
	return hex.EncodeToString(b[:])
}

// Keyed sets the key it is given.
func Keyed(req *http.Request, key string) *http.Request { // want Keyed:`sends parameters \[1\] to header "Idempotency-Key"`
	req.Header.Set("Idempotency-Key", key)
	return req
}

// Send makes a key and sends a request on every call.
func Send(ctx context.Context, c *http.Client, url string) error { // want Send:`mints a key: NewKey at lib.go:31 sent as header "Idempotency-Key" via Keyed`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	_, err = c.Do(Keyed(req, NewKey())) // want `NewKey: sent as header "Idempotency-Key" via Keyed`
	return err
}
