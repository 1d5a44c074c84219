// Package redundanttest unlocks an appliance's API before use. Its unlock loop tries again
// after a jittered pause when the request timed out, and returns on any other error; a second
// test of the same error, on a way only a failure takes, cannot go round (not reported). A loop
// that goes round at once on the other errors is reported for that way round.
package redundanttest

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"net"
	"net/http"
	"time"
)

// Client unlocks and calls the appliance.
type Client struct {
	base string
	hc   *http.Client
}

// New returns a client of the appliance at base.
func New(base string) *Client {
	return &Client{base: base, hc: &http.Client{Timeout: 30 * time.Second}}
}

// Unlock sends the passphrase, three tries.
func (c *Client) Unlock(passphrase string) error {
	var err error
	var resp *http.Response
	for retries := 0; retries < 3; retries++ {
		var req *http.Request
		req, err = http.NewRequest(http.MethodPut, c.base+"/api/v0/unlock", bytes.NewBufferString(fmt.Sprintf(`{"passphrase": %q}`, passphrase)))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err = c.hc.Do(req)
		if err == nil {
			break
		}
		if e, ok := err.(net.Error); ok && e.Timeout() {
			time.Sleep(time.Duration(rand.Intn(500)) * time.Millisecond)
			continue
		}
		if err != nil {
			return fmt.Errorf("could not unlock: %w", err)
		}
	}
	if err != nil {
		return fmt.Errorf("could not unlock: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return errors.New("could not unlock, check the passphrase")
	}
	return nil
}

// Ping asks the appliance, three tries; it pauses only after a timeout.
func (c *Client) Ping() error {
	var err error
	for retries := 0; retries < 3; retries++ { // related "redundanttest.go:64: retry loop" "redundanttest.go:67: goes round here without waiting" // want `retry loop goes round without waiting after some failures: it hammers a failing dependency`
		var resp *http.Response
		resp, err = c.hc.Get(c.base + "/api/v0/ping")
		if err == nil {
			resp.Body.Close()
			return nil
		}
		if e, ok := err.(net.Error); ok && e.Timeout() {
			time.Sleep(time.Duration(rand.Intn(500)) * time.Millisecond)
			continue
		}
	}
	return err
}
