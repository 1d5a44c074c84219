// Package busyhelper runs vCenter operations through a helper that goes round only while the
// error matches the expression it is handed. Handed one that names the server's refusal ("is
// busy"), it re-sends a POST the server turned away: not reported. Handed one that matches a
// timeout, it re-sends a POST that may have been applied: reported.
package busyhelper

import (
	"bytes"
	"fmt"
	"log"
	"math/rand/v2"
	"net/http"
	"regexp"
	"time"
)

var (
	entityBusy = regexp.MustCompile(`entity .* is busy completing an operation`)
	timedOut   = regexp.MustCompile(`(?i)i/o timeout|connection reset`)
)

const maxRetryTime = 2 * time.Minute

type VCenter struct {
	hc   *http.Client
	base string
	ID   string
}

// runWithRetry runs op until it succeeds, the error stops matching errRegexp, or d passes.
func runWithRetry(op func() error, errRegexp *regexp.Regexp, d time.Duration) error {
	end := time.Now().Add(d)
	for count := 1; ; count++ {
		err := op()
		if err == nil {
			return nil
		}
		if !errRegexp.MatchString(err.Error()) {
			return err
		}
		if time.Now().After(end) {
			return fmt.Errorf("giving up after %d attempts: %w", count, err)
		}
		log.Printf("attempt %d: %v (will retry)", count, err)
		time.Sleep(2*time.Second + rand.N(time.Second))
	}
}

func (v *VCenter) post(path string, body []byte) error {
	req, err := http.NewRequest(http.MethodPost, v.base+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := v.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("%s: %s", path, resp.Status)
	}
	return nil
}

func (v *VCenter) refresh() error {
	return v.post("/api/admin/extension/vimServer/"+v.ID+"/action/refresh", nil)
}

func (v *VCenter) attach() error {
	return v.post("/api/admin/extension/vimServer/"+v.ID+"/action/attach", []byte(`{"force":false}`)) // related "busyhelper.go:81: retry callback" related "busyhelper.go:55: sent here by post" // want `a POST request is retried with no idempotency key; post must send one made before the retries`
}

// Refresh is sent again only while vCenter is busy.
func (v *VCenter) Refresh() error {
	return runWithRetry(v.refresh, entityBusy, maxRetryTime)
}

// Attach is sent again after a timeout too.
func (v *VCenter) Attach() error {
	return runWithRetry(v.attach, timedOut, maxRetryTime)
}
