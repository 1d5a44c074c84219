// Package kvcache keeps entries with an expiry in the service's key-value store.
package kvcache

import (
	"encoding/json"
	"errors"
	"time"

	"nojitter/kvtable"
)

// ErrExpired is returned for an entry past its expiry.
var ErrExpired = errors.New("expired")

// Entry is a cached value with an expiry.
type Entry struct {
	User       string    `json:"user"`
	Pass       string    `json:"pass"`
	Expiration time.Time `json:"expiration"`
}

// Get reads an entry, ErrExpired once it has expired.
func Get(key string) (*Entry, error) {
	raw, err := kvtable.FetchRecord("cache", key)
	if err != nil {
		return nil, err
	}
	var e Entry
	if err := json.Unmarshal([]byte(raw), &e); err != nil {
		return nil, err
	}
	if time.Now().After(e.Expiration) {
		return nil, ErrExpired
	}
	return &e, nil
}
