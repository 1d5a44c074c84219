// Package usehelper calls the helper of another package, known through its HelperFact. The
// helper retries whatever callback it is handed, so its fixed wait is reported here, at the
// first call that hands it a request to a remote server, once; a call that hands it local
// work is not a retry of a remote dependency.
package usehelper

import (
	"context"
	"fmt"
	"net/http"
	"os"

	"nojitter/helperlib"
)

func Fetch(ctx context.Context, hc *http.Client, url string) error {
	return helperlib.Do(ctx, 3, func(ctx context.Context) error { // related "usehelper.go:17: retry callback" // want `helperlib\.Do waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode >= 500 {
			return fmt.Errorf("fetch %s: status %d", url, resp.StatusCode)
		}
		return nil
	})
}

// Head is the same helper's second remote caller: the one cause is reported once, above.
func Head(ctx context.Context, hc *http.Client, url string) error {
	return helperlib.Do(ctx, 5, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodHead, url, nil)
		if err != nil {
			return err
		}
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}

// WriteState retries a rename on this machine's disk: not reported.
func WriteState(ctx context.Context, tmp, path string) error {
	return helperlib.Do(ctx, 3, func(context.Context) error {
		return os.Rename(tmp, path)
	})
}
