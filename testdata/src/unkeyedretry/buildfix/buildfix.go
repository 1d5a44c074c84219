// Package buildfix: a generator retries a local build, asking a remote service for a fix
// after each failure. The POST for a fix is a step before going round, sent once per failed
// build with that build's errors, and a failed POST ends the loop: it is not retried. The
// POST that starts the build remotely, in the second loop, is.
package buildfix

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

type fixer struct {
	hc  *http.Client
	api string
}

func (f *fixer) suggest(ctx context.Context, code, errors string) (string, error) {
	body, err := json.Marshal(map[string]string{"code": code, "errors": errors})
	if err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.api+"/fix", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := f.hc.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("fix: %s", resp.Status)
	}
	var out struct{ Code string }
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return "", err
	}
	return out.Code, nil
}

// ---- Not reported: the fix request follows a failed local build ----

func (f *fixer) compileFix(ctx context.Context, dir, file string, maxAttempts int) error {
	for attempt := 0; attempt < maxAttempts; attempt++ {
		cmd := exec.CommandContext(ctx, "go", "build", "./...")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err == nil {
			return nil
		}
		path := filepath.Join(dir, file)
		code, rerr := os.ReadFile(path)
		if rerr != nil {
			return rerr
		}
		fixed, ferr := f.suggest(ctx, string(code), string(out))
		if ferr != nil {
			return fmt.Errorf("fix attempt %d: %w", attempt+1, ferr)
		}
		if werr := os.WriteFile(path, []byte(fixed), 0o644); werr != nil {
			return werr
		}
	}
	return fmt.Errorf("still failing after %d fixes", maxAttempts)
}

// ---- Reported: the remote build request itself is retried ----

func (f *fixer) startBuild(ctx context.Context, repo string) (string, error) {
	body, _ := json.Marshal(map[string]string{"repo": repo})
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.api+"/builds", bytes.NewReader(body)) // related "buildfix.go:80: retry loop" "buildfix.go:86: sent here" // want `POST /builds is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return "", err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := f.hc.Do(req)
		if err != nil {
			lastErr = err
			time.Sleep(time.Duration(attempt+1) * time.Second)
			continue
		}
		resp.Body.Close()
		return resp.Header.Get("Location"), nil
	}
	return "", lastErr
}
