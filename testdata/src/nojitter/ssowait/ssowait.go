// Package ssowait waits for a browser sign-in to finish by reading the state the callback
// handler stores: a loop that reads the database again at once when the read fails.
package ssowait

import (
	"errors"
	"log"
	"time"

	"nojitter/kvcache"
	"nojitter/kvtable"
)

// Await reports the password the sign-in produced, or false when the state expired.
func Await(state string, answer chan<- string, expired chan<- bool) {
	go func() {
		for { // related "ssowait.go:17: retry loop" // want `retry loop retries for ever \(no attempt cap, no deadline\)`
			entry, err := kvcache.Get(state)
			if err != nil {
				if errors.Is(err, kvcache.ErrExpired) {
					log.Printf("sign-in %s expired", state)
					expired <- true
					return
				}
				continue
			}
			if entry.Pass != "" {
				log.Printf("sign-in of %s completed", entry.User)
				answer <- entry.Pass
				return
			}
			time.Sleep(500 * time.Millisecond)
		}
	}()
}

// Drop removes the state from the in-memory table, trying again while that fails: the
// table's entry for deletes is a function that stays in the process.
func Drop(state string) {
	for {
		if err := kvtable.Forget(state); err == nil {
			return
		}
		log.Printf("forget %s: retrying", state)
		time.Sleep(100 * time.Millisecond)
	}
}
