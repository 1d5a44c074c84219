package throttleonly

import (
	"bytes"
	"net"
	"net/http"
	"time"
)

func postJSON(c *http.Client, url string, body []byte) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	return c.Do(req)
}

// doWithRetries sends again on 429 and after a timeout, whose response is nil: it goes round.
func doWithRetries(operation func() (*http.Response, error), maxRetries int) (*http.Response, error) {
	var resp *http.Response
	var err error
	for attempt := 0; attempt <= maxRetries; attempt++ {
		resp, err = operation()
		if err != nil {
			if nerr, ok := err.(net.Error); ok && nerr.Timeout() {
				// go on below
			} else {
				return resp, err
			}
		}
		if resp != nil && resp.StatusCode != http.StatusTooManyRequests {
			return resp, nil
		}
		time.Sleep(time.Duration(attempt+1) * time.Second)
	}
	return resp, err
}

func ReportUsage(c *http.Client, url string, usage []byte) error {
	resp, err := doWithRetries(func() (*http.Response, error) {
		return postJSON(c, url, usage) // related "plainhttp.go:41: retry callback" "plainhttp.go:16: sent here by postJSON" // want `a POST request is retried with no idempotency key; postJSON must send one made before the retries`
	}, 3)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
