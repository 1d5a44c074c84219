package retrytransport

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log"
	"net/http"
	"time"

	"github.com/google/go-github/v74/github"
)

// A GitHub API transport that paces its requests and sends a request again only when GitHub
// turned it away for a rate limit (go-github's RateLimitError or AbuseRateLimitError): the
// request was not processed, so sending it again is safe whatever its method. Not reported.
type rateLimitTransport struct {
	next  http.RoundTripper
	delay time.Duration
}

func (t *rateLimitTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	ghErr := github.CheckResponse(resp)
	resp.Body = io.NopCloser(bytes.NewReader(body))

	abuse := &github.AbuseRateLimitError{}
	if errors.As(ghErr, &abuse) {
		log.Printf("secondary rate limit, sleeping %s", abuse.GetRetryAfter())
		waitFor(req.Context(), abuse.GetRetryAfter())
		return t.RoundTrip(req)
	}
	limited := &github.RateLimitError{}
	if errors.As(ghErr, &limited) {
		until := time.Until(limited.Rate.Reset.Time)
		log.Printf("rate limit reached, sleeping %s", until)
		waitFor(req.Context(), until)
		return t.RoundTrip(req)
	}
	return resp, nil
}

func waitFor(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// NewGitHubClient sends through the rate-limit transport.
func NewGitHubClient() *http.Client {
	return &http.Client{Timeout: time.Minute, Transport: &rateLimitTransport{next: http.DefaultTransport}}
}
