// Package kvopen keeps a sync tool's state in a kvfile store, opened on demand and shared with
// other processes of the tool, and reads the blobs it needs through a kvfile cache.
package kvopen

import (
	"context"
	"log"
	"os"
	"time"

	"nojitter/kvfile"
)

type state struct {
	path     string
	openTime time.Duration
	retries  int
	db       *kvfile.DB
	forWrite bool
	cache    *kvfile.Cache
	lastOpen time.Time
}

// ---- Not reported ----

// open opens the store, trying again when another process holds its lock past openTime: the
// store is a local file, and each attempt already waits for the lock.
func (s *state) open(ctx context.Context, forWrite bool) error {
	if s.db != nil && s.forWrite == forWrite {
		return nil
	}
	if !forWrite {
		if _, err := os.Stat(s.path); os.IsNotExist(err) {
			return err
		}
	}
	opt := &kvfile.Options{Timeout: s.openTime, ReadOnly: !forWrite}
	start := time.Now()
	var db *kvfile.DB
	var err error
	retry := 1
	for {
		db, err = kvfile.Open(s.path, 0o600, opt)
		if err == nil || retry >= s.retries {
			break
		}
		log.Printf("retry #%d opening %s: %v", retry, s.path, err)
		retry++
	}
	if err != nil {
		return err
	}
	log.Printf("opened %s in %v", s.path, time.Since(start))
	s.db, s.forWrite, s.lastOpen = db, forWrite, time.Now()
	return nil
}

// ---- Reported ----

// blob reads a blob through the cache, whose default fetch is a GET of the blob service, and
// goes round at once when it fails.
func (s *state) blob(ctx context.Context, key string) ([]byte, error) {
	var b []byte
	var err error
	for try := 1; ; try++ { // related "kvopen.go:65: retry loop" "kvopen.go:65: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter` `retry loop ignores ctx: its retries outlive the caller; pass ctx on`
		b, err = s.cache.Get(key)
		if err == nil || try >= s.retries {
			break
		}
		log.Printf("retry #%d reading blob %s: %v", try, key, err)
	}
	return b, err
}
