// Command devpollremote waits for a remote service to answer its health check.
package main

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"time"
)

// ---- Reported: one of the calls polls a remote service ----

func waitForHealth(ctx context.Context, url string) error {
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return fmt.Errorf("creating request: %w", err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond): // related "main.go:15: retry loop" // want `retry loop waits a fixed 200ms between attempts, so clients that failed together retry together; add jitter`
		}
	}
}

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := waitForHealth(ctx, "http://127.0.0.1:8080/health"); err != nil {
		log.Fatal(err)
	}
	if err := waitForHealth(ctx, "https://registry.example.com/v2/"); err != nil {
		log.Fatal(err)
	}
}
