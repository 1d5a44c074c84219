// Package attest uploads build attestations to a transparency log. Its name ends in "test",
// but it is production code (it imports no testing package): its retry loop is reported.
package attest

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"time"
)

// Uploader sends attestations.
type Uploader struct {
	logURL string
	hc     *http.Client
}

// New returns an uploader to the log at logURL.
func New(logURL string) *Uploader {
	return &Uploader{logURL: logURL, hc: &http.Client{Timeout: 20 * time.Second}}
}

// Upload sends an attestation, again at once while the log is unreachable.
func (u *Uploader) Upload(ctx context.Context, statement []byte) error {
	for { // related "attest.go:27: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, u.logURL+"/api/v1/entries", bytes.NewReader(statement))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := u.hc.Do(req)
		if err != nil {
			slog.Warn("upload attestation", "err", err)
			continue
		}
		resp.Body.Close()
		if resp.StatusCode >= 300 {
			return fmt.Errorf("upload attestation: status %d", resp.StatusCode)
		}
		return nil
	}
}
