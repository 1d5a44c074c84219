package loops

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
)

// A request helper that, when the server says the token was revoked, has the program's hook
// refresh it, reloads the credentials, and sends once more: a recovery after the hook
// succeeded, not a retry of the same request.

// tokenRefresher is set by the program's login package: it refreshes a profile's token.
var tokenRefresher func(profile string) error

type apiBase struct {
	hc      *http.Client
	base    string
	profile string
	token   string
}

type hookAPIError struct {
	Status int
	Code   string `json:"code"`
}

func (e *hookAPIError) Error() string { return fmt.Sprintf("status %d: %s", e.Status, e.Code) }

// ---- Not reported: once the hook refreshed the token ----

func (a *apiBase) performAPI(ctx context.Context, method, path string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, a.base+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+a.token)
	resp, err := a.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusUnauthorized {
		e := &hookAPIError{Status: resp.StatusCode}
		_ = json.Unmarshal(body, e)
		if e.Code == "token_revoked" && tokenRefresher != nil {
			if err := tokenRefresher(a.profile); err != nil {
				return nil, err
			}
			tok, err := os.ReadFile(a.profile + ".token")
			if err != nil {
				return nil, err
			}
			a.token = strings.TrimSpace(string(tok))
			return a.performAPI(ctx, method, path)
		}
		return nil, e
	}
	if resp.StatusCode >= 300 {
		return nil, &hookAPIError{Status: resp.StatusCode}
	}
	return body, nil
}

// ---- Reported: a 503 sends it back at once ----

var errHookUnavailable = errors.New("service unavailable")

func (a *apiBase) performAgain(ctx context.Context, method, path string) ([]byte, error) { // related "refreshhook.go:78: retrying recursion" // want `retrying function performAgain goes round without waiting, so it hammers a failing dependency; wait with jitter`
	req, err := http.NewRequestWithContext(ctx, method, a.base+path, nil)
	if err != nil {
		return nil, err
	}
	resp, err := a.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusServiceUnavailable {
		return a.performAgain(ctx, method, path)
	}
	if resp.StatusCode >= 300 {
		return nil, fmt.Errorf("%s %s: %w", method, path, &hookAPIError{Status: resp.StatusCode})
	}
	return io.ReadAll(resp.Body)
}
