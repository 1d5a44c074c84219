// Package peerwalk downloads a file from the first mirror that has it. Each round tries
// another mirror, as many as there are: a failover, which needs no wait between mirrors.
package peerwalk

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"
)

var client = &http.Client{Timeout: time.Minute}

// Fetch returns the file from the first mirror that serves it.
func Fetch(ctx context.Context, mirrors []string, name string) ([]byte, error) {
	var last error
	for _, m := range mirrors {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, m+"/"+name, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Accept", "application/octet-stream")
		resp, err := client.Do(req)
		if err != nil {
			slog.Warn("mirror failed", "mirror", m, "err", err)
			last = err
			continue
		}
		data, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			last = fmt.Errorf("%s: %s: %v", m, resp.Status, err)
			continue
		}
		return data, nil
	}
	return nil, fmt.Errorf("no mirror served %s: %w", name, last)
}
