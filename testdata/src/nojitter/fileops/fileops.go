// Package fileops keeps a job's state on disk, retrying file operations that another
// process may briefly hold, and pushes the state to a coordinator.
package fileops

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"strings"
	"time"
)

// retryFileOp runs op again while the file is held by another process. Every caller hands
// it a file operation: the retries stay on this machine. Not reported.
func retryFileOp(op func() error) error {
	err := op()
	if err == nil || !busy(err) {
		return err
	}
	wait := 10 * time.Millisecond
	for range 12 {
		time.Sleep(wait)
		if err = op(); err == nil || !busy(err) {
			return err
		}
		wait = min(2*wait, 100*time.Millisecond)
	}
	return err
}

func busy(err error) bool {
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	msg := strings.ToLower(err.Error())
	return strings.Contains(msg, "used by another process") || strings.Contains(msg, "sharing violation")
}

// ReadState reads the state file.
func ReadState(path string) ([]byte, error) {
	var data []byte
	err := retryFileOp(func() error {
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		data = b
		return nil
	})
	return data, err
}

// ReplaceState renames a written temporary file over the state file.
func ReplaceState(tmp, path string) error {
	return retryFileOp(func() error { return os.Rename(tmp, path) })
}

// RemoveState deletes the state file.
func RemoveState(path string) error {
	return retryFileOp(func() error { return os.Remove(path) })
}

// retryPush runs op again after a failure, doubling the wait. One of its callers hands it an
// HTTP request: those retries reach the coordinator, in step with every other worker's.
func retryPush(op func() error) error {
	var err error
	wait := 100 * time.Millisecond
	for range 5 {
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(wait) // related "fileops.go:71: retry loop" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
		wait *= 2
	}
	return err
}

var hc = &http.Client{Timeout: 10 * time.Second}

// Push sends the state to the coordinator.
func Push(url string, state []byte) error {
	return retryPush(func() error {
		resp, err := hc.Post(url, "application/json", bytes.NewReader(state))
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode >= 300 {
			return fmt.Errorf("push: %s", resp.Status)
		}
		return nil
	})
}

// Flush writes the state through the same helper: a local operation among its callers does
// not make the others local.
func Flush(path string, state []byte) error {
	return retryPush(func() error { return os.WriteFile(path, state, 0o600) })
}
