package loops

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"net/rpc"
	"os"
	"path/filepath"
	"time"
)

// Retries of local work protect no remote dependency: there is no herd of clients for jitter
// to spread, so a fixed wait is fine.

var errLocked = errors.New("locked")

// acquire takes a lock file next to the state it guards.
func acquire(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil, errLocked
	}
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	if _, err := fmt.Fprintf(f, "%d\n", os.Getpid()); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ---- Not reported: a lock file, a rename on a busy file system ----

func Lock(ctx context.Context, dir string) (*os.File, error) {
	var err error
	for attempt := 0; attempt < 50; attempt++ {
		var f *os.File
		if f, err = acquire(dir); err == nil {
			return f, nil
		}
		if !errors.Is(err, errLocked) {
			return nil, err
		}
		log.Printf("state %s is locked, attempt %d", dir, attempt)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	return nil, err
}

func Replace(tmp, dst string) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = os.Rename(tmp, dst); err == nil {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return err
}

// ---- Not reported: the agent's RPC server in the same pod, over a Unix socket ----

// WaitForAgent dials the agent's socket until it appears: a process on this machine.
func WaitForAgent(ctx context.Context, socket string) (*rpc.Client, error) {
	var lastErr error
	for attempt := 0; attempt < 600; attempt++ {
		c, err := rpc.DialHTTP("unix", socket)
		if err == nil {
			return c, nil
		}
		lastErr = err
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return nil, lastErr
}

// ---- Reported: the same over TCP to a configured address ----

func WaitForServer(ctx context.Context, addr string) (*rpc.Client, error) {
	var lastErr error
	for attempt := 0; attempt < 600; attempt++ {
		c, err := rpc.DialHTTP("tcp", addr)
		if err == nil {
			return c, nil
		}
		lastErr = err
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second): // related "local.go:93: retry loop" // want `retry loop waits a fixed 1s between attempts, so clients that failed together retry together; add jitter`
		}
	}
	return nil, lastErr
}
