// Package e2etest is the harness of an end-to-end suite: its Suite takes the test's
// *testing.T, and its helpers sign a fresh test account in again at once until one works. A
// harness waits as its suite pleases: not reported.
package e2etest

import (
	"context"
	"net/http"
	"testing"
	"time"
)

// Suite runs end-to-end tests against a test server.
type Suite struct {
	server string
	cancel []context.CancelFunc
	hc     *http.Client
	used   map[string]bool
}

// New returns a suite for t against server.
func New(t testing.TB, server string) *Suite {
	s := &Suite{server: server, hc: &http.Client{Timeout: 10 * time.Second}, used: make(map[string]bool)}
	t.Cleanup(s.close)
	return s
}

func (s *Suite) close() {
	for _, c := range s.cancel {
		c()
	}
}

// Context returns a context that ends with the test.
func (s *Suite) Context() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	s.cancel = append(s.cancel, cancel)
	return ctx
}
