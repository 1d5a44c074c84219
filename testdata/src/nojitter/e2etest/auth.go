package e2etest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
)

var errNeedsPassword = errors.New("account needs a password")

func (s *Suite) signIn(ctx context.Context, phone string) error {
	form := url.Values{"phone": {phone}, "code": {"12345"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.server+"/auth/sign-in", strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := s.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
		return nil
	case http.StatusUnauthorized:
		return errNeedsPassword
	}
	return fmt.Errorf("sign in: status %d", resp.StatusCode)
}

// Authenticate signs a test account in, taking another account when one needs a password.
func (s *Suite) Authenticate(ctx context.Context) (string, error) {
	for {
		phone := fmt.Sprintf("99966%05d", rand.IntN(100000))
		if s.used[phone] {
			continue
		}
		s.used[phone] = true
		if err := s.signIn(ctx, phone); err != nil {
			if errors.Is(err, errNeedsPassword) {
				continue
			}
			return "", fmt.Errorf("authenticate: %w", err)
		}
		return phone, nil
	}
}

// Ping asks the test server until it answers.
func (s *Suite) Ping(ctx context.Context) error {
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.server+"/ping", nil)
		if err != nil {
			return err
		}
		resp, err := s.hc.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		return nil
	}
}
