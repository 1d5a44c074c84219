package loops

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"time"
)

// apiError is what the variable store answers with when a write is refused.
type apiError struct {
	status int
	body   string
}

func (e *apiError) Error() string { return fmt.Sprintf("status %d: %s", e.status, e.body) }

type writeMeta struct {
	Index   uint64        `json:"index"`
	Elapsed time.Duration `json:"-"`
}

type varStore struct {
	http       *http.Client
	addr       string
	token      string
	maxRetries int64
	base       time.Duration
	fixed      time.Duration
}

// write sends one PUT and decodes its metadata; a refusal comes back as *apiError.
func (s *varStore) write(path string, in any) (*writeMeta, error) {
	body, err := json.Marshal(in)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequest(http.MethodPut, s.addr+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Store-Token", s.token)
	start := time.Now()
	resp, err := s.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
		return nil, &apiError{status: resp.StatusCode, body: string(b)}
	}
	var wm writeMeta
	if err := json.NewDecoder(resp.Body).Decode(&wm); err != nil {
		return nil, fmt.Errorf("decode write metadata: %w", err)
	}
	wm.Elapsed = time.Since(start)
	return &wm, nil
}

func retriableStatus(code int) bool {
	return code == http.StatusTooManyRequests || code >= 500 && code != http.StatusNotImplemented
}

// delayFor doubles the base delay per earlier attempt, unless a fixed delay is configured.
func (s *varStore) delayFor(attempt int64) time.Duration {
	if s.fixed != 0 {
		return s.fixed
	}
	if attempt == 0 {
		return 0
	}
	return s.base << (attempt - 1)
}

// writeWithRetry waits at the top of every round, before the attempt, on a timer it resets to
// the round's delay; it goes round only on a refusal whose status is worth another try.
func (s *varStore) writeWithRetry(ctx context.Context, path string, in any) (*writeMeta, error) {
	var (
		wm  *writeMeta
		err error
	)
	t := time.NewTimer(time.Hour)
	defer t.Stop()
	for attempt := int64(0); attempt <= s.maxRetries; attempt++ {
		t.Reset(s.delayFor(attempt)) // related "topwait.go:92: retry loop" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-t.C:
		}
		wm, err = s.write(path, in)
		if wm != nil {
			break
		}
		var refused *apiError
		if !errors.As(err, &refused) {
			break // a transport error: the caller decides
		}
		if !retriableStatus(refused.status) {
			break
		}
		slog.Warn("variable write refused, retrying", "path", path, "status", refused.status, "attempt", attempt)
	}
	return wm, err
}

// writeSpread is the same loop with a jittered delay: not reported.
func (s *varStore) writeSpread(ctx context.Context, path string, in any) (*writeMeta, error) {
	var (
		wm  *writeMeta
		err error
	)
	t := time.NewTimer(time.Hour)
	defer t.Stop()
	for attempt := int64(0); attempt <= s.maxRetries; attempt++ {
		d := s.delayFor(attempt)
		t.Reset(d/2 + rand.N(d/2+1))
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-t.C:
		}
		wm, err = s.write(path, in)
		if wm != nil {
			break
		}
		var refused *apiError
		if !errors.As(err, &refused) || !retriableStatus(refused.status) {
			break
		}
	}
	return wm, err
}

// writeElsewhere goes round on a refusal only to send the write to the address the refusal
// names, with no wait anywhere: a protocol's next step, not a retry. Not reported.
func (s *varStore) writeElsewhere(path string, in any) (*writeMeta, error) {
	for hops := 0; hops < 3; hops++ {
		wm, err := s.write(path, in)
		var refused *apiError
		if errors.As(err, &refused) && refused.status == http.StatusMisdirectedRequest {
			s.addr = refused.body
			continue
		}
		return wm, err
	}
	return nil, errors.New("too many redirects")
}

var errNothingYet = errors.New("no new output yet")

// tail returns the next bytes of a build log; errNothingYet when the server had none.
func (s *varStore) tail(ctx context.Context, offset int64, p []byte) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("%s/log?offset=%d&limit=%d", s.addr, offset, len(p)), nil)
	if err != nil {
		return 0, err
	}
	resp, err := s.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	n, err := resp.Body.Read(p)
	if n == 0 && (err == nil || err == io.EOF) {
		return 0, errNothingYet
	}
	return n, err
}

// follow waits at the top of every round and goes round only while the server has nothing
// new: it polls for output, every real failure ends it. Not reported.
func (s *varStore) follow(ctx context.Context, offset int64, p []byte) (int, error) {
	for round := 1; ; round++ {
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(min(time.Duration(round)*500*time.Millisecond, 2*time.Second)):
			if n, err := s.tail(ctx, offset, p); !errors.Is(err, errNothingYet) {
				return n, err
			}
		}
	}
}
