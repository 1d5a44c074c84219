// Package kvplugins keeps its backends in a table keyed by name: the in-memory one in the
// literal, the database one registered by an init function when the driver is linked in, and
// a disabled entry under a key of another kind. A loop over the configured backend retries a
// database when that one is configured.
package kvplugins

import (
	"database/sql"
	"log"
	"os"
	"time"
)

var db *sql.DB

var backends = map[any]func(key string) error{
	"mem": memTouch,
	false: func(string) error { return nil },
}

var mem = map[string]bool{}

func memTouch(key string) error { mem[key] = true; return nil }

func pgTouch(key string) error {
	_, err := db.Exec("UPDATE kv SET touched = now() WHERE key = $1", key)
	return err
}

func init() {
	backends["postgres"] = pgTouch
}

// Touch marks key as used in the configured backend, trying again while that fails.
func Touch(key string) {
	name := os.Getenv("KV_BACKEND")
	for i := 0; i < 5; i++ {
		if err := backends[name](key); err == nil {
			return
		}
		log.Printf("touch %s: retrying", key)
		time.Sleep(100 * time.Millisecond) // related "kvplugins.go:37: retry loop" // want `retry loop waits a fixed 100ms between attempts`
	}
}
