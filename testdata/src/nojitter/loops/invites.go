package loops

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"time"
)

// Invitations to a project, stored under a random token that must be unique: when the
// database already holds the token drawn, the service draws another.

var errInviteExists = errors.New("invite token already exists")

type inviteStore struct{ db *sql.DB }

func (s *inviteStore) create(ctx context.Context, project, token string, expires time.Time) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_, err := s.db.ExecContext(ctx, `INSERT INTO invites (token, project, expires_at) VALUES ($1, $2, $3)`, token, project, expires)
	if err != nil && isUniqueViolation(err) {
		return errInviteExists
	}
	return err
}

func isUniqueViolation(err error) bool {
	var coded interface{ SQLState() string }
	return errors.As(err, &coded) && coded.SQLState() == "23505"
}

func newInviteToken() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("draw token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// ---- Not reported: it goes round only on a collision, with a new token ----

func (s *inviteStore) CreateInvite(ctx context.Context, project string) (string, error) {
	expires := time.Now().Add(24 * time.Hour)
	for i := 0; i < 3; i++ {
		tok, err := newInviteToken()
		if err != nil {
			return "", err
		}
		err = s.create(ctx, project, tok, expires)
		if err == nil {
			return tok, nil
		}
		if errors.Is(err, errInviteExists) {
			continue
		}
		return "", err
	}
	return "", fmt.Errorf("create invite: %w", errInviteExists)
}

// ---- Reported: it goes round on any failure of the database, at once ----

func (s *inviteStore) CreateInviteAnyway(ctx context.Context, project string) (string, error) {
	expires := time.Now().Add(24 * time.Hour)
	var err error
	for i := 0; i < 3; i++ { // related "invites.go:69: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		tok, terr := newInviteToken()
		if terr != nil {
			return "", terr
		}
		if err = s.create(ctx, project, tok, expires); err == nil {
			return tok, nil
		}
	}
	return "", fmt.Errorf("create invite: %w", err)
}
