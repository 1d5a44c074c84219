// Package driver declares an interface without contexts, like a migration tool's database
// driver: its implementations cannot get a context from their callers.
package driver

type Driver interface {
	Lock() error
	Unlock() error
	Version() (int, error)
}
