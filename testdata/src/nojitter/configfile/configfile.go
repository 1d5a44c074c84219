// Package configfile keeps a CLI's contexts in a file under the user's home and fetches
// shared contexts from a team server. Decoding goes through a registered Codec, so the model
// cannot tell whether loading the file stays in the process; what the loops go round on can:
// a file that does not exist yet is this machine's own state.
package configfile

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"time"
)

// Codec decodes a file's bytes; formats register one at start.
type Codec interface {
	Decode(data []byte, into any) error
}

var codec Codec

// Config is the file's content.
type Config struct {
	Current  string            `json:"current"`
	Contexts map[string]string `json:"contexts"`
}

func load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var c Config
	if err := codec.Decode(data, &c); err != nil {
		return nil, fmt.Errorf("decoding %s: %w", path, err)
	}
	return &c, nil
}

// ---- Not reported: loops that go round only on a file this machine has not made yet ----

// Open loads the file, creating it (and its directory) the first time it is missing, and
// loads it again once.
func Open(path string, log *slog.Logger) (*Config, error) {
	created := false
	for {
		c, err := load(path)
		if err != nil {
			if os.IsNotExist(err) && !created {
				log.Debug("config file missing, creating it", "path", path)
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					return nil, fmt.Errorf("creating %s: %w", filepath.Dir(path), err)
				}
				f, err := os.Create(path)
				if err != nil {
					return nil, fmt.Errorf("creating %s: %w", path, err)
				}
				f.Close()
				created = true
				continue
			}
			return nil, fmt.Errorf("loading %s: %w", path, err)
		}
		return c, nil
	}
}

// WaitWritten waits for another process on this machine (the login helper) to write the
// file, polling every 200ms for up to ten seconds.
func WaitWritten(ctx context.Context, path string) (*Config, error) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := load(path)
		switch {
		case err == nil:
			return c, nil
		case !errors.Is(err, fs.ErrNotExist):
			return nil, err
		case time.Now().After(deadline):
			return nil, fmt.Errorf("%s not written after 10s", path)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// ---- Reported: the same tests, where the loop also goes round on a remote failure ----

var client = &http.Client{Timeout: 10 * time.Second}

func fetchShared(ctx context.Context, server string) (*Config, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, server+"/v1/contexts", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("team server: %s", resp.Status)
	}
	var c Config
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
		return nil, err
	}
	return &c, nil
}

// Shared loads the team's contexts from the local cache, or from the server when the cache
// is missing; any failure of the server goes round after the same fixed second.
func Shared(ctx context.Context, cache, server string) (*Config, error) {
	for attempt := 0; attempt < 5; attempt++ {
		c, err := load(cache)
		if err == nil {
			return c, nil
		}
		if !os.IsNotExist(err) {
			return nil, err
		}
		c, err = fetchShared(ctx, server)
		if err == nil {
			return c, nil
		}
		slog.Warn("team server unavailable", "attempt", attempt, "err", err)
		time.Sleep(time.Second) // related "configfile.go:123: retry loop" // want `retry loop waits a fixed 1s between attempts, so clients that failed together retry together; add jitter`
	}
	return nil, errors.New("team server unavailable")
}

// Refresh re-reads the server's contexts, going round at once when it fails and at once when
// the file to merge them into is missing.
func Refresh(ctx context.Context, path, server string) error {
	for range 3 { // related "configfile.go:144: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		shared, err := fetchShared(ctx, server)
		if err != nil {
			continue
		}
		c, err := load(path)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return err
		}
		for k, v := range shared.Contexts {
			c.Contexts[k] = v
		}
		return nil
	}
	return errors.New("refresh failed")
}
