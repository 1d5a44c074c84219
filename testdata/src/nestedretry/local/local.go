// Package local: a retry layer around one that retries local work (a lock file) multiplies no
// calls to a dependency: not reported. The same outer layer around a remote retry is.
package local

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"time"
)

func jitter(d time.Duration) time.Duration { return time.Duration(rand.Int64N(int64(d))) }

var errLocked = errors.New("locked")

// lock retries taking a lock file while another process holds it.
func lock(dir string) (*os.File, error) {
	var err error
	for attempt := 0; attempt < 20; attempt++ {
		var f *os.File
		f, err = os.OpenFile(filepath.Join(dir, ".lock"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		time.Sleep(jitter(50 * time.Millisecond))
	}
	return nil, errLocked
}

// fetch retries a GET on its own.
func fetch(ctx context.Context, hc *http.Client, url string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		req, rerr := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if rerr != nil {
			return rerr
		}
		var resp *http.Response
		if resp, err = hc.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode < 500 {
				return nil
			}
			err = fmt.Errorf("status %d", resp.StatusCode)
		}
		time.Sleep(jitter(time.Second))
	}
	return err
}

// ---- Not reported: the inner layer is local ----

func Sync(ctx context.Context, dir string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var f *os.File
		if f, err = lock(dir); err == nil {
			return f.Close()
		}
		time.Sleep(jitter(time.Second))
	}
	return err
}

// ---- Reported: the inner layer retries a request ----

func Refresh(ctx context.Context, hc *http.Client, url string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = fetch(ctx, hc, url); err == nil { // related "local.go:77: outer retry loop" "local.go:41: inner retry loop" // want `retries up to 3 times around fetch, which retries up to 3 times: up to 9 calls on transport errors, 5xx; keep one layer`
			return nil
		}
		time.Sleep(jitter(time.Second))
	}
	return err
}
