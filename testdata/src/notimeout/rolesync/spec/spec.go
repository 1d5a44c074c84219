// Package spec declares the project's own types, among them a strategy interface without
// contexts: the project can change it, so it is no contract for its implementations.
package spec

import "database/sql"

type RequestKind int

const (
	Create RequestKind = iota
	Alter
	Rename
)

type Role struct {
	Name     string
	Password string
	Flags    []string
	MemberOf []string
	Deleted  bool
}

type SyncRequest struct {
	Kind RequestKind
	Role Role
}

// RoleSyncStrategy applies role changes to a database.
type RoleSyncStrategy interface {
	ApplyRequests(reqs []SyncRequest, db *sql.DB) error
}
