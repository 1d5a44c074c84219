// Package uuid is a stub of github.com/gofrs/uuid/v5.
package uuid

type UUID [16]byte

func NewV4() (UUID, error)        { return UUID{}, nil }
func NewV7() (UUID, error)        { return UUID{}, nil }
func Must(u UUID, err error) UUID { return u }
func (u UUID) String() string     { return "" }
