package loops

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
)

// A loop that goes round once, after a step that changes what it sends (new credentials, a
// re-registered account, another endpoint), recovers: it does not retry the same request.

var errExpired = errors.New("token expired")

type authSession struct {
	hc        *http.Client
	endpoints []string
	active    int
	token     string
	failures  int
}

func (s *authSession) send(ctx context.Context, base, token string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/v1/me", nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := s.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusUnauthorized {
		return errExpired
	}
	if resp.StatusCode >= 300 {
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	return nil
}

func (s *authSession) refresh(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.endpoints[s.active]+"/v1/token", nil)
	if err != nil {
		return err
	}
	resp, err := s.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	s.token = resp.Header.Get("Token")
	return nil
}

// ---- Not scopes: one more try after a fix ----

func (s *authSession) Me(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		if err = s.send(ctx, s.endpoints[s.active], s.token); err == nil {
			return nil
		}
		if !errors.Is(err, errExpired) {
			return err
		}
		log.Printf("token expired, refreshing")
		if err := s.refresh(ctx); err != nil {
			return err
		}
	}
	return err
}

func (s *authSession) Failover(ctx context.Context) error {
	var err error
	for range 2 {
		if err = s.send(ctx, s.endpoints[s.active], s.token); err == nil {
			return nil
		}
		log.Printf("%s: %v; switching endpoint", s.endpoints[s.active], err)
		s.active = (s.active + 1) % len(s.endpoints)
	}
	return err
}

// ---- Scopes: the same request again ----

// Two attempts, only a counter changes between them.
func (s *authSession) Twice(ctx context.Context) error { // want Twice:`retries: retry loop at recover.go:94, attempts=2`
	var err error
	for attempt := 0; attempt < 2; attempt++ { // want `retry loop: attempts=2 wait=none deadline=context`
		if err = s.send(ctx, s.endpoints[s.active], s.token); err == nil {
			return nil
		}
		s.failures++
	}
	return err
}

// Refreshing on every failure, up to five times: a retry that refreshes.
func (s *authSession) Persist(ctx context.Context) error { // want Persist:`retries: retry loop at recover.go:106, attempts=5`
	var err error
	for attempt := 0; attempt < 5; attempt++ { // want `retry loop: attempts=5 wait=none deadline=context`
		if err = s.send(ctx, s.endpoints[s.active], s.token); err == nil {
			return nil
		}
		if err := s.refresh(ctx); err != nil {
			return err
		}
	}
	return err
}
