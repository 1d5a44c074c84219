// Package database declares an interface without contexts, like a migration tool's database
// driver: its implementations cannot get a context from their callers.
package database

type Driver interface {
	Lock() error
	Unlock() error
	Version() (int, error)
}
