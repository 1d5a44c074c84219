// Package localwait starts a search node on this machine for a benchmark and waits for it.
// The wait polls the address it gave the process (http://0.0.0.0:<port>, kept in a package
// variable): a local process, not a remote dependency, so it needs no jitter. Waiting for the
// configured remote cluster the same way is a retry of a remote call without jitter.
package localwait

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand"
	"net/http"
	"os"
	"os/exec"
	"time"
)

var addr string

var cluster = os.Getenv("SEARCH_CLUSTER")

func listenAddr(port int) string { return fmt.Sprintf("http://0.0.0.0:%d", port) }

// StartNode runs the node and waits up to a minute for it to answer.
func StartNode(ctx context.Context, binary string, log *slog.Logger) (*exec.Cmd, error) {
	addr = listenAddr(30000 + rand.Intn(10000))
	cmd := exec.CommandContext(ctx, binary, "--http.addr", addr)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	hc := &http.Client{Timeout: 2 * time.Second}
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, addr+"/_cluster/health", nil)
		if err != nil {
			return nil, err
		}
		resp, err := hc.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return cmd, nil
			}
		}
		log.Debug("node not up yet", "addr", addr, "err", err)
		select {
		case <-ctx.Done():
			_ = cmd.Process.Kill()
			return nil, fmt.Errorf("localwait: node did not start: %w", ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// WaitCluster waits up to a minute for the configured cluster to answer.
func WaitCluster(ctx context.Context, log *slog.Logger) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	hc := &http.Client{Timeout: 2 * time.Second}
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, cluster+"/_cluster/health", nil)
		if err != nil {
			return err
		}
		resp, err := hc.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		log.Debug("cluster not up yet", "err", err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond): // related "localwait.go:61: retry loop" // want `retry loop waits a fixed 200ms between attempts, so clients that failed together retry together; add jitter`
		}
	}
}
