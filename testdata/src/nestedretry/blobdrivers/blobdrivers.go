// Package blobdrivers holds two HTTP blob stores, each wrapped in the retrying storage.
//
// The folder store finds a blob's id by listing, which lags behind writes: it polls the
// listing a few times while the name is not found, and the retrying wrapper never retries a
// blob that is not found, so the two layers go round on different failures. The DAV store
// retries its own writes on transient failures, which the wrapper retries too: attempts
// multiply.
package blobdrivers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"nestedretry/blobretry"
	"nestedretry/blobstore"
	"nestedretry/blobstore/retrying"
)

type statusError struct {
	op   string
	code int
}

func (e *statusError) Error() string { return fmt.Sprintf("%s: HTTP %d", e.op, e.code) }

func check(op string, resp *http.Response) error {
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return fmt.Errorf("%s: %w", op, blobstore.ErrNotFound)
	case resp.StatusCode >= 300:
		return &statusError{op: op, code: resp.StatusCode}
	}
	return nil
}

// folderStore keeps blobs as files of one folder of a drive API.
type folderStore struct {
	base   string
	folder string
	client *http.Client
}

// NewFolder returns the folder store, retried by the wrapper.
func NewFolder(base, folder string) blobstore.Storage {
	return retrying.New(&folderStore{base: base, folder: folder, client: &http.Client{Timeout: 30 * time.Second}})
}

func retryNotFound(err error) bool {
	return errors.Is(err, blobstore.ErrNotFound)
}

func (s *folderStore) lookup(ctx context.Context, name string) (string, error) {
	q := url.Values{"folder": {s.folder}, "name": {name}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.base+"/files?"+q.Encode(), nil)
	if err != nil {
		return "", err
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if err := check("list", resp); err != nil {
		return "", err
	}
	var files []struct {
		ID string `json:"id"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&files); err != nil {
		return "", err
	}
	if len(files) == 0 {
		return "", fmt.Errorf("list %s: %w", name, blobstore.ErrNotFound)
	}
	return files[0].ID, nil
}

// fileID waits for the listing to show the name, a few times 100ms apart.
func (s *folderStore) fileID(ctx context.Context, name string) (string, error) {
	return blobretry.Periodically(ctx, 100*time.Millisecond, 3, "file id of "+name, func() (string, error) {
		return s.lookup(ctx, name)
	}, retryNotFound)
}

func (s *folderStore) Get(ctx context.Context, name string, w io.Writer) error {
	id, err := s.fileID(ctx, name)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.base+"/files/"+id+"/content", nil)
	if err != nil {
		return err
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if err := check("get", resp); err != nil {
		return err
	}
	_, err = io.Copy(w, resp.Body)
	return err
}

func (s *folderStore) Put(ctx context.Context, name string, data []byte) error {
	return s.send(ctx, http.MethodPut, s.base+"/folders/"+s.folder+"/"+url.PathEscape(name), data)
}

func (s *folderStore) Delete(ctx context.Context, name string) error {
	id, err := s.fileID(ctx, name)
	if err != nil {
		return err
	}
	return s.send(ctx, http.MethodDelete, s.base+"/files/"+id, nil)
}

func (s *folderStore) send(ctx context.Context, method, u string, data []byte) error {
	req, err := http.NewRequestWithContext(ctx, method, u, bytesReader(data))
	if err != nil {
		return err
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return check(method, resp)
}

// davStore keeps blobs on a WebDAV server and retries its own writes.
type davStore struct {
	base   string
	client *http.Client
}

// NewDAV returns the DAV store, retried by the wrapper.
func NewDAV(base string) blobstore.Storage {
	return retrying.New(&davStore{base: base, client: &http.Client{Timeout: 30 * time.Second}}) // related "blobdrivers.go:174: inner retry callback" // want `retrying.New retries davStore.Put, which retries on its own: the attempts multiply; keep one layer`
}

func isTransient(err error) bool {
	var se *statusError
	if errors.As(err, &se) {
		return se.code >= 500 || se.code == http.StatusTooManyRequests || se.code == http.StatusLocked
	}
	return !errors.Is(err, blobstore.ErrNotFound)
}

func (s *davStore) Get(ctx context.Context, name string, w io.Writer) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.base+"/"+url.PathEscape(name), nil)
	if err != nil {
		return err
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if err := check("get", resp); err != nil {
		return err
	}
	_, err = io.Copy(w, resp.Body)
	return err
}

func (s *davStore) Put(ctx context.Context, name string, data []byte) error {
	return blobretry.WithBackoffNoValue(ctx, "dav put "+name, func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, s.base+"/"+url.PathEscape(name), bytesReader(data))
		if err != nil {
			return err
		}
		resp, err := s.client.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		return check("put", resp)
	}, isTransient)
}

func (s *davStore) Delete(ctx context.Context, name string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, s.base+"/"+url.PathEscape(name), nil)
	if err != nil {
		return err
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return check("delete", resp)
}

// readOnlyStore refuses writes to the store it wraps.
type readOnlyStore struct {
	blobstore.Storage
}

var errReadOnly = errors.New("read-only storage")

func (readOnlyStore) Put(context.Context, string, []byte) error { return errReadOnly }
func (readOnlyStore) Delete(context.Context, string) error      { return errReadOnly }

// view returns the store itself, or a read-only view of it when asked.
func view(s *davStore, readOnly bool) (blobstore.Storage, error) {
	if s.base == "" {
		return nil, errors.New("no base URL")
	}
	if readOnly {
		return readOnlyStore{Storage: s}, nil
	}
	return s, nil
}

// OpenDAV returns the DAV store, or a read-only view of it, retried by the wrapper: by
// default the store itself, whose writes retry on their own.
func OpenDAV(base string, readOnly bool) (blobstore.Storage, error) {
	st, err := view(&davStore{base: base, client: &http.Client{Timeout: 30 * time.Second}}, readOnly)
	if err != nil {
		return nil, err
	}
	return retrying.New(st), nil // related "blobdrivers.go:174: inner retry callback" // want `retrying.New retries davStore.Put, which retries on its own: the attempts multiply; keep one layer`
}
