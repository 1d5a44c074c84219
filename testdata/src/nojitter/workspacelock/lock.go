package workspacelock

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrPending says the workspace's last state version is still being processed.
var ErrPending = errors.New("state version still pending")

type fatalError struct{ err error }

func (e *fatalError) Error() string     { return e.err.Error() }
func (e *fatalError) FatalError() error { return e.err }

// API is the remote service's workspace API.
type API interface {
	Unlock(ctx context.Context, workspace string) error
	ForceUnlock(ctx context.Context, workspace string) error
	Outputs(ctx context.Context, workspace string) (map[string]string, error)
}

// State is a workspace's remote state.
type State struct {
	api       API
	workspace string
	lockID    string
}

// Unlock releases the lock. The service refuses while the last state version is pending, so
// it retries on that; the context it hands the helper never ends, and the helper has no cap.
func (s *State) Unlock(id string) error {
	ctx := context.Background()
	if s.lockID != id {
		return fmt.Errorf("lock ID %q does not match %q", id, s.lockID)
	}
	err := retryBackoff(ctx, func() error { // want `retryBackoff retries with no attempt cap until its context is done, and this one never is: it retries for ever`
		err := s.api.Unlock(ctx, s.workspace)
		if err != nil {
			if errors.Is(err, ErrPending) {
				return err // retried
			}
			return &fatalError{err}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("unlocking %s: %w", s.workspace, err)
	}
	s.lockID = ""
	return nil
}

// Outputs reads the workspace's outputs within a minute: not reported.
func (s *State) Outputs() (map[string]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out map[string]string
	err := retryBackoff(ctx, func() error {
		o, err := s.api.Outputs(ctx, s.workspace)
		if errors.Is(err, ErrPending) {
			return err
		}
		if err != nil {
			return &fatalError{err}
		}
		out = o
		return nil
	})
	return out, err
}

// ForceUnlock hands on its caller's context: not reported here.
func (s *State) ForceUnlock(ctx context.Context) error {
	return retryBackoff(ctx, func() error {
		err := s.api.ForceUnlock(ctx, s.workspace)
		if errors.Is(err, ErrPending) {
			return err
		}
		if err != nil {
			return &fatalError{err}
		}
		return nil
	})
}
