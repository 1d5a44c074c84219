// Package helper starts the service under test for the integration suite and waits until it
// answers: a readiness poll in the suite's own tree (test/), not production code.
package helper

import (
	"context"
	"fmt"
	"net/http"
	"os/exec"
	"time"
)

type Server struct {
	cmd  *exec.Cmd
	base string
	hc   *http.Client
}

func Start(ctx context.Context, bin, addr string) (*Server, error) {
	cmd := exec.CommandContext(ctx, bin, "serve", "--listen", addr)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	s := &Server{cmd: cmd, base: "http://" + addr, hc: &http.Client{Timeout: 2 * time.Second}}
	if err := s.waitReady(ctx, 30*time.Second); err != nil {
		_ = cmd.Process.Kill()
		return nil, err
	}
	return s, nil
}

func (s *Server) waitReady(ctx context.Context, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.base+"/health", nil)
		if err != nil {
			return err
		}
		resp, err := s.hc.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("server at %s not ready after %s", s.base, limit)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
