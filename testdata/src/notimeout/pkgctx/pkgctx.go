// Package pkgctx keeps a repository's key-value storage in etcd. Every call is given the one
// context the package keeps in a variable: context.TODO(), which has no deadline. One cause,
// one finding, whatever the number of calls.
package pkgctx

import (
	"context"
	"errors"
	"fmt"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// Ctx is the context of every storage call.
var Ctx = context.TODO()

var ErrNotFound = errors.New("key not found")

type Storage struct {
	db *clientv3.Client
}

func Open(endpoints []string) (*Storage, error) {
	c, err := clientv3.New(clientv3.Config{Endpoints: endpoints, DialTimeout: 5 * time.Second})
	if err != nil {
		return nil, fmt.Errorf("etcd: %w", err)
	}
	return &Storage{db: c}, nil
}

// ---- Reported once: every call gets the package's context ----

func (s *Storage) Get(key []byte) ([]byte, error) {
	resp, err := s.db.Get(Ctx, string(key)) // related "pkgctx.go:16: context.TODO() has no deadline" "pkgctx.go:46: KV.Put gets context.TODO() too" "pkgctx.go:53: KV.Delete gets context.TODO() too" // want `KV\.Get and 2 more calls get contexts without a deadline, so a stalled server hangs them; use context\.WithTimeout`
	if err != nil {
		return nil, fmt.Errorf("get %s: %w", key, err)
	}
	if len(resp.Kvs) == 0 {
		return nil, ErrNotFound
	}
	return resp.Kvs[0].Value, nil
}

func (s *Storage) Put(key, value []byte) error {
	if _, err := s.db.Put(Ctx, string(key), string(value)); err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	return nil
}

func (s *Storage) Delete(key []byte) error {
	if _, err := s.db.Delete(Ctx, string(key)); err != nil {
		return fmt.Errorf("delete %s: %w", key, err)
	}
	return nil
}

// ---- Not reported: a call bounded by its own deadline ----

func (s *Storage) Has(ctx context.Context, key []byte) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	resp, err := s.db.Get(ctx, string(key))
	if err != nil {
		return false, err
	}
	return len(resp.Kvs) > 0, nil
}
