// Package urliter downloads from a list of mirror URLs that an iterator hands out: a failed
// request moves the iterator on to the next mirror, and after the last one it starts again
// once. Each round goes to another mirror: a failover, not a retry of the same request.
package urliter

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// URLs hands out mirror URLs.
type URLs interface {
	// Peek fills u with the current URL; false when there are no more.
	Peek(u *url.URL) (bool, error)
	// Next moves on to the next URL.
	Next()
	// Reset starts from the first URL again.
	Reset()
}

type mirrors struct {
	mu   sync.Mutex
	urls []*url.URL
	i    int
}

func NewMirrors(raw ...string) (URLs, error) {
	m := &mirrors{}
	for _, r := range raw {
		u, err := url.Parse(r)
		if err != nil {
			return nil, fmt.Errorf("urliter: mirror %q: %w", r, err)
		}
		m.urls = append(m.urls, u)
	}
	return m, nil
}

func (m *mirrors) Peek(u *url.URL) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.i >= len(m.urls) {
		return false, nil
	}
	*u = *m.urls[m.i]
	return true, nil
}

func (m *mirrors) Next() {
	m.mu.Lock()
	m.i++
	m.mu.Unlock()
}

func (m *mirrors) Reset() {
	m.mu.Lock()
	m.i = 0
	m.mu.Unlock()
}

var client = &http.Client{Timeout: time.Minute}

func retryable(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) || errors.Is(err, io.ErrUnexpectedEOF)
}

// Download copies the object from the first mirror that serves it, going through the list
// twice.
func Download(ctx context.Context, urls URLs, header http.Header, w io.Writer) (int64, error) {
	var (
		u         url.URL
		reset     bool
		err, perr error
		ok        bool
	)
	for {
		if ok, perr = urls.Peek(&u); perr != nil {
			return 0, perr
		} else if !ok {
			if reset {
				break
			}
			urls.Reset()
			reset = true
			continue
		}
		req := http.Request{Method: http.MethodGet, URL: &u, Header: header, Body: http.NoBody}
		resp, err := client.Do(req.WithContext(ctx))
		if err != nil {
			if !retryable(err) {
				return 0, err
			}
			slog.WarnContext(ctx, "mirror failed", "url", u.String(), "err", err)
			urls.Next()
			continue
		}
		if resp.StatusCode != http.StatusOK {
			resp.Body.Close()
			urls.Next()
			continue
		}
		n, err := io.Copy(w, resp.Body)
		resp.Body.Close()
		return n, err
	}
	return 0, fmt.Errorf("urliter: no mirror served the object: %w", err)
}

// Stat asks the current mirror again at once after a failure: the same request, no wait.
func Stat(ctx context.Context, urls URLs, header http.Header) (*http.Response, error) {
	var u url.URL
	for attempt := 0; attempt < 5; attempt++ { // related "urliter.go:121: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		ok, err := urls.Peek(&u)
		if err != nil || !ok {
			return nil, fmt.Errorf("urliter: no mirror: %v", err)
		}
		req := http.Request{Method: http.MethodHead, URL: &u, Header: header, Body: http.NoBody}
		resp, err := client.Do(req.WithContext(ctx))
		if err != nil {
			slog.WarnContext(ctx, "stat failed", "url", u.String(), "attempt", attempt, "err", err)
			continue
		}
		resp.Body.Close()
		return resp, nil
	}
	return nil, errors.New("urliter: stat failed")
}
