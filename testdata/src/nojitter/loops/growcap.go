package loops

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"time"
)

// A client for an API that answers 400 with a fixed text when the caller is over its rate:
// it waits, half as long again each time, and gives up once the wait passes 25 s. The wait
// that grows to a constant bounds the attempts (about eight): no "retries for ever", only
// the missing jitter.

type growCapClient struct {
	hc   *http.Client
	base string
}

func (c *growCapClient) rateLimitedGet(path string) ([]byte, error) {
	req, err := http.NewRequest(http.MethodGet, c.base+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	backoff := time.Second
	const maxBackoff = 25 * time.Second
retry:
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode == http.StatusOK {
		return body, nil
	}
	if resp.StatusCode == http.StatusBadRequest && string(body) == "Requests exceeded API Rate limit." {
		if backoff > 10*time.Second {
			log.Printf("delaying %v for the rate limit", backoff)
		}
		time.Sleep(backoff) // related "growcap.go:29: goto retry loop" // want `goto retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
		backoff = backoff + backoff/2
		if backoff > maxBackoff {
			return nil, fmt.Errorf("rate limited on %s: %s", path, body)
		}
		goto retry
	}
	return nil, fmt.Errorf("get %s: %s: %s", path, resp.Status, body)
}
