package failures

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
)

// A manifest kept in an object store, updated with optimistic concurrency: a write names the
// revision it read, and the store answers 409 when another writer got there first.

var errMoved = errors.New("manifest entry moved by another writer")

type conflictError struct{ status int }

func (e *conflictError) Error() string { return "status " + strconv.Itoa(e.status) }

func isConflict(err error) bool {
	var ce *conflictError
	return errors.As(err, &ce) && ce.status == http.StatusConflict
}

type manifest struct {
	Rev     int               `json:"rev"`
	Entries map[string]string `json:"entries"`
}

type manifestStore struct {
	hc  *http.Client
	url string
}

func (m *manifestStore) read(ctx context.Context) (*manifest, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, m.url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := m.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, &conflictError{status: resp.StatusCode}
	}
	var mf manifest
	return &mf, json.NewDecoder(resp.Body).Decode(&mf)
}

func (m *manifestStore) write(ctx context.Context, mf *manifest) error {
	b, err := json.Marshal(mf)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, m.url+"?rev="+strconv.Itoa(mf.Rev), bytes.NewReader(b))
	if err != nil {
		return err
	}
	resp, err := m.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return &conflictError{status: resp.StatusCode}
	}
	return nil
}

// point moves name to loc, reading and writing again whenever another writer won the race; it
// gives up at once on anything else, and reports errMoved when name no longer points where
// the caller saw it.
func (m *manifestStore) point(ctx context.Context, name, was, loc string) error {
	for {
		mf, err := m.read(ctx)
		if err != nil {
			return err
		}
		if cur, ok := mf.Entries[name]; ok && cur != was {
			return errMoved
		}
		mf.Entries[name] = loc
		mf.Rev++
		err = m.write(ctx, mf)
		if err == nil {
			return nil
		}
		if !isConflict(err) {
			return fmt.Errorf("write manifest: %w", err)
		}
	}
}

// Replace goes round only when the entry moved, which point returns at once, never after
// retrying it: point's own loop (no cap) never hands its conflicts back. The layers retry
// different failures, and nothing multiplies. Not reported.
func (m *manifestStore) Replace(ctx context.Context, name string, next func(old string) string) error {
	for {
		mf, err := m.read(ctx)
		if err != nil {
			return err
		}
		old := mf.Entries[name]
		if err := m.point(ctx, name, old, next(old)); err != nil {
			if err == errMoved {
				continue
			}
			return err
		}
		return nil
	}
}
