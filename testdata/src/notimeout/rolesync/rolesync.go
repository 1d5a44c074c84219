// Package rolesync applies role changes with a strategy that implements the project's own
// interface: the calls it makes without a context are the project's to bound.
package rolesync

import (
	"database/sql"
	"fmt"
	"log"
	"strings"

	"notimeout/rolesync/spec"
)

const (
	createRoleSQL = `CREATE ROLE "%s" %s %s`
	alterRoleSQL  = `ALTER ROLE "%s" %s`
	renameRoleSQL = `ALTER ROLE "%s" RENAME TO "%s%s"`
	grantRoleSQL  = `GRANT "%s" TO "%s"`
)

type Strategy struct {
	DeletionSuffix string
	Logger         *log.Logger
}

var _ spec.RoleSyncStrategy = Strategy{}

// ApplyRequests runs each request; the failed ones are tried once more at the end.
func (s Strategy) ApplyRequests(reqs []spec.SyncRequest, db *sql.DB) error {
	var again []spec.SyncRequest
	var errs []string
	for _, r := range reqs {
		var err error
		switch r.Kind {
		case spec.Create:
			err = s.createRole(r.Role, db)
		case spec.Alter:
			err = s.alterRole(r.Role, db)
		case spec.Rename:
			err = s.renameRole(r.Role, db)
		default:
			return fmt.Errorf("unknown request kind %d", r.Kind)
		}
		if err != nil {
			s.Logger.Printf("could not apply %v to role %q: %v", r.Kind, r.Role.Name, err)
			errs = append(errs, err.Error())
			again = append(again, r)
		}
	}
	if len(again) > 0 && len(again) < len(reqs) {
		return s.ApplyRequests(again, db)
	}
	if len(errs) > 0 {
		return fmt.Errorf("could not apply role requests: %s", strings.Join(errs, "; "))
	}
	return nil
}

func (s Strategy) createRole(r spec.Role, db *sql.DB) error {
	pw := "PASSWORD NULL"
	if r.Password != "" {
		pw = fmt.Sprintf("PASSWORD '%s'", r.Password)
	}
	if _, err := db.Exec(fmt.Sprintf(createRoleSQL, r.Name, strings.Join(r.Flags, " "), pw)); err != nil { // related "rolesync.go:68: DB.Exec takes no context either" "rolesync.go:79: DB.Exec takes no context either" "rolesync.go:88: DB.Exec takes no context either" // want `DB\.Exec and 3 more calls in this package take no context: a stalled database hangs them; use their Context forms`
		return fmt.Errorf("create role %q: %w", r.Name, err)
	}
	for _, group := range r.MemberOf {
		if _, err := db.Exec(fmt.Sprintf(grantRoleSQL, group, r.Name)); err != nil {
			return fmt.Errorf("grant %q to %q: %w", group, r.Name, err)
		}
	}
	return nil
}

func (s Strategy) alterRole(r spec.Role, db *sql.DB) error {
	if len(r.Flags) == 0 {
		return nil
	}
	_, err := db.Exec(fmt.Sprintf(alterRoleSQL, r.Name, strings.Join(r.Flags, " ")))
	return err
}

func (s Strategy) renameRole(r spec.Role, db *sql.DB) error {
	name, suffix := r.Name, s.DeletionSuffix
	if r.Deleted {
		name, suffix = strings.TrimSuffix(r.Name, s.DeletionSuffix), ""
	}
	if _, err := db.Exec(fmt.Sprintf(renameRoleSQL, r.Name, name, suffix)); err != nil {
		return fmt.Errorf("rename role %q: %w", r.Name, err)
	}
	return nil
}
