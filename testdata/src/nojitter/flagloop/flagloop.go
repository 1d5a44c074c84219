// Package flagloop is the request layer of a monitoring API's SDK: a request is tried until
// a flag says it succeeded.
package flagloop

import (
	"bytes"
	"fmt"
	"io"
	"log"
	"math"
	"math/rand"
	"net/http"
	"strings"
	"time"
)

type API struct {
	base      string
	token     string
	http      *http.Client
	backoff   bool
	Log       *log.Logger
	maxChecks int
}

func New(base, token string, backoff bool) *API {
	return &API{base: base, token: token, http: &http.Client{Timeout: 30 * time.Second}, backoff: backoff, Log: log.Default(), maxChecks: 5}
}

func jittered(interval uint) float64 {
	return math.Floor((float64(interval)*(1+rand.Float64()))/2 + .5)
}

func (a *API) call(method, path string, data []byte) ([]byte, error) {
	req, err := http.NewRequest(method, a.base+path, bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-Api-Token", a.token)
	req.Header.Set("Accept", "application/json")
	resp, err := a.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("api call %s %s failed: code %d: %s", method, path, resp.StatusCode, body)
	}
	return body, nil
}

// ---- Reported: a flag ends the loop on success; failures other than 400/403/404 go round for ever ----

// Request tries a call until it succeeds, with a growing, jittered wait between attempts.
func (a *API) Request(method, path string, data []byte) ([]byte, error) {
	backoffs := []uint{2, 4, 8, 16, 32}
	attempts := 0
	success := false

	var result []byte
	var err error

	for !success { // related "flagloop.go:67: retry loop" // want `retry loop retries for ever \(no attempt cap, no deadline\); count the attempts and stop after a few`
		result, err = a.call(method, path, data)
		if err == nil {
			success = true
		}

		if err != nil {
			if !a.backoff {
				break
			}
			if strings.Contains(err.Error(), "code 400") {
				break
			}
			if strings.Contains(err.Error(), "code 403") {
				break
			}
			if strings.Contains(err.Error(), "code 404") {
				break
			}
		}

		if !success {
			var wait float64
			if attempts >= len(backoffs) {
				wait = jittered(backoffs[len(backoffs)-1])
			} else {
				wait = jittered(backoffs[attempts])
			}
			attempts++
			a.Log.Printf("api call failed %s, retrying in %d seconds", err, uint(wait))
			time.Sleep(time.Duration(wait) * time.Second)
		}
	}

	return result, err
}

// ---- Not reported: the same loop, with its attempts capped ----

// Check tries a call at most maxChecks times.
func (a *API) Check(path string) ([]byte, error) {
	attempts := 0
	done := false

	var result []byte
	var err error

	for !done && attempts < a.maxChecks {
		result, err = a.call(http.MethodGet, path, nil)
		if err == nil {
			done = true
		}
		if !done {
			attempts++
			time.Sleep(time.Duration(jittered(uint(attempts)*2)) * time.Second)
		}
	}
	return result, err
}
