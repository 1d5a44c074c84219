package loops

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"time"
)

// A status page client whose errors carry the HTTP status, and verdicts that look at it.

type pageStatusError struct {
	Code int
	Body string
}

func (e *pageStatusError) Error() string { return fmt.Sprintf("status page: %d: %s", e.Code, e.Body) }

func hasPageStatus(err error, code int) bool {
	var se *pageStatusError
	return errors.As(err, &se) && se.Code == code
}

// retryablePage judges by the attempt too: it may hold a limit of its own.
func retryablePage(err error, attempt int) bool {
	return attempt < 8 && (hasPageStatus(err, http.StatusServiceUnavailable) || hasPageStatus(err, http.StatusBadGateway))
}

type pageClient struct {
	hc  *http.Client
	url string
	log *slog.Logger
}

func (p *pageClient) fetch() ([]byte, error) {
	resp, err := p.hc.Get(p.url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, &pageStatusError{Code: resp.StatusCode, Body: string(b)}
	}
	return b, nil
}

// ---- Reported: a verdict handed a constant status cannot count attempts: no cap ----

func (p *pageClient) Load() ([]byte, error) {
	for { // related "statusverdict.go:57: retry loop" // want `retry loop retries for ever \(no attempt cap, no deadline\); count the attempts and stop after a few`
		b, err := p.fetch()
		if err == nil {
			return b, nil
		}
		if !hasPageStatus(err, http.StatusServiceUnavailable) {
			return nil, err
		}
		p.log.Warn("status page unavailable", "url", p.url, "err", err)
		time.Sleep(time.Second + rand.N(time.Second))
	}
}

// ---- Not reported: the verdict is handed the attempt, and may stop on it ----

func (p *pageClient) LoadCounted() ([]byte, error) {
	for attempt := 0; ; attempt++ {
		b, err := p.fetch()
		if err == nil {
			return b, nil
		}
		if !retryablePage(err, attempt) {
			return nil, err
		}
		p.log.Warn("status page unavailable", "url", p.url, "attempt", attempt, "err", err)
		time.Sleep(time.Second + rand.N(time.Second))
	}
}
