package failures

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// session logs in to a storage service; its login tries a second request form once the first
// is refused, and gives up after a transport error.
type session struct {
	hc      *http.Client
	authURL string
	user    string
	key     string
	retries int
	token   string
	storage string
}

var errAuth = errors.New("authentication failed")

func (s *session) login(ctx context.Context) (storage, token string, err error) {
	for attempt := 0; attempt < 3; attempt++ {
		var req *http.Request
		req, err = http.NewRequestWithContext(ctx, http.MethodGet, s.authURL, nil)
		if err != nil {
			return "", "", err
		}
		req.Header.Set("X-Auth-User", s.user)
		req.Header.Set("X-Auth-Key", s.key)
		var resp *http.Response
		resp, err = s.hc.Do(req)
		if err != nil {
			time.Sleep(time.Duration(attempt+1) * 200 * time.Millisecond)
			continue
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return "", "", fmt.Errorf("%w: %s", errAuth, resp.Status)
		}
		return resp.Header.Get("X-Storage-Url"), resp.Header.Get("X-Auth-Token"), nil
	}
	return "", "", err
}

// call gives up at once when login fails (its error is kept in the named result err, read
// back after a deferred cleanup was registered), and goes round only after the storage
// request itself fails: the layers retry different failures. Not reported.
func (s *session) call(ctx context.Context, path string) (resp *http.Response, err error) {
	retries := s.retries
	for {
		var storage, token string
		if storage, token, err = s.login(ctx); err != nil {
			return nil, fmt.Errorf("login: %w", err)
		}
		timer := time.AfterFunc(30*time.Second, func() {})
		defer timer.Stop()
		var req *http.Request
		req, err = http.NewRequestWithContext(ctx, http.MethodGet, storage+path, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("X-Auth-Token", token)
		resp, err = s.hc.Do(req)
		if err != nil {
			if retries > 0 {
				retries--
				time.Sleep(time.Second)
				continue
			}
			return nil, err
		}
		return resp, nil
	}
}

// callAgain goes round when login fails too: attempts multiply. Reported.
func (s *session) callAgain(ctx context.Context, path string) (resp *http.Response, err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("storage %s: %w", path, err)
		}
	}()
	for attempt := 0; attempt < 4; attempt++ {
		var storage, token string
		if storage, token, err = s.login(ctx); err != nil { // related "namedresult.go:87: outer retry loop" "namedresult.go:26: inner retry loop" // want `4 attempts around session\.login, which makes 3 each: up to 12 calls on transport errors; keep one layer`
			time.Sleep(time.Second)
			continue
		}
		var req *http.Request
		req, err = http.NewRequestWithContext(ctx, http.MethodGet, storage+path, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("X-Auth-Token", token)
		if resp, err = s.hc.Do(req); err == nil {
			return resp, nil
		}
	}
	return nil, err
}
