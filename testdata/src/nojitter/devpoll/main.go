// Command devpoll starts a development server and waits for it to answer its health check
// on this machine before it seeds it; it also waits for a remote registry the same way.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"os/exec"
	"time"
)

var errHealthTimeout = errors.New("server did not become healthy")

// waitForHealth polls url until it answers 200 or the timeout passes.
func waitForHealth(ctx context.Context, url string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if ctx.Err() != nil {
			return ctx.Err()
		}
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
		time.Sleep(200 * time.Millisecond)
	}
	return errHealthTimeout
}

// ---- Not reported: every call polls a server on this machine ----

func main() {
	port := flag.Int("port", 8080, "port of the development server")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "./server", "-listen", fmt.Sprintf("127.0.0.1:%d", *port))
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		log.Fatal(err)
	}
	healthURL := fmt.Sprintf("http://127.0.0.1:%d/health", *port)
	if err := waitForHealth(ctx, healthURL, 30*time.Second); err != nil {
		log.Fatal(err)
	}
	if err := waitForHealth(ctx, "http://localhost:9090/ready", 10*time.Second); err != nil {
		log.Fatal(err)
	}
	log.Printf("server ready on %d", *port)
}
