// Package shadowtime: a parameter named time hides the time package where the client is made,
// so the fix imports time again under a name that means it there.
package shadowtime

import (
	"io"
	"net/http"
	"time"
)

type Probe struct {
	Started time.Time
	URL     string
}

// Check is given the probe's time as a parameter named time.
func Check(p Probe, time string) (int, error) {
	c := &http.Client{} // related "shadowtime.go:20: Client.Get sends a request without a context through it" // want `this http\.Client has no Timeout, so a stalled server hangs Client\.Get, whose request has no deadline; set Timeout`
	_ = time
	resp, err := c.Get(p.URL)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, err
}
