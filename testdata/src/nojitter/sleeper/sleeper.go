// Package sleeper retries rate-limited API calls through an injected sleeper, so that tests
// can replace the wait: the package's own sleeper adds up to a second of random jitter to
// the backoff it is handed; its pacer waits exactly what it is handed.
package sleeper

import (
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"time"
)

type sleepService interface {
	Sleep(d time.Duration)
}

type timeSleepService struct{}

func (timeSleepService) Sleep(d time.Duration) {
	time.Sleep(d + time.Duration(rand.Intn(1000))*time.Millisecond)
}

type pacer interface {
	Wait(d time.Duration)
}

type exactPacer struct{}

func (exactPacer) Wait(d time.Duration) { time.Sleep(d) }

type Client struct {
	http  *http.Client
	sleep sleepService
	pace  pacer
}

func New() *Client {
	return &Client{http: &http.Client{Timeout: 30 * time.Second}, sleep: timeSleepService{}, pace: exactPacer{}}
}

// Call retries a 429 with an exponential backoff that the sleeper jitters.
func (c *Client) Call(url string) ([]byte, error) {
	backoff := 1000
	for {
		resp, err := c.http.Get(url)
		if err != nil {
			return nil, err
		}
		if backoff > 32000 || resp.StatusCode != http.StatusTooManyRequests {
			defer resp.Body.Close()
			return io.ReadAll(resp.Body)
		}
		resp.Body.Close()
		c.sleep.Sleep(time.Millisecond * time.Duration(backoff))
		backoff *= 2
	}
}

// CallPaced retries a 429 with an exponential backoff that the pacer waits exactly.
func (c *Client) CallPaced(url string) ([]byte, error) {
	backoff := 1000
	for {
		resp, err := c.http.Get(url)
		if err != nil {
			return nil, err
		}
		if backoff > 32000 || resp.StatusCode != http.StatusTooManyRequests {
			defer resp.Body.Close()
			if resp.StatusCode >= 300 {
				return nil, fmt.Errorf("status %d", resp.StatusCode)
			}
			return io.ReadAll(resp.Body)
		}
		resp.Body.Close()
		c.pace.Wait(time.Millisecond * time.Duration(backoff)) // related "sleeper.go:63: retry loop" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
		backoff *= 2
	}
}
