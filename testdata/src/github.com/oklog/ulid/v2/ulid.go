// Package ulid is a stub of github.com/oklog/ulid/v2.
package ulid

import "io"

type ULID [16]byte

func Make() ULID                                { return ULID{} }
func MustNew(ms uint64, entropy io.Reader) ULID { return ULID{} }
func (id ULID) String() string                  { return "" }
