// Package ksuid is a stub of github.com/segmentio/ksuid.
package ksuid

type KSUID [20]byte

func New() KSUID               { return KSUID{} }
func (i KSUID) String() string { return "" }
