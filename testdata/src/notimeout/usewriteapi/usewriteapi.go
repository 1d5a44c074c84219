// Package usewriteapi pushes metrics through writeapi from a command.
package usewriteapi

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"time"

	"notimeout/writeapi"
)

// ---- Not reported: the API was built with a client that has a Timeout ----

func push(addr string, timeout time.Duration, body []byte) int {
	hc := &http.Client{
		Transport: http.DefaultTransport,
		Timeout:   timeout,
	}
	api, err := writeapi.New(addr, writeapi.WithPath("/push"), writeapi.WithHTTPClient(hc))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for _, file := range []string{"a.pb", "b.pb"} {
		if !pushFile(api, file, body) {
			return 1
		}
	}
	return 0
}

// pushFile is handed the API its only caller built with a timed client.
func pushFile(api *writeapi.API, name string, body []byte) bool {
	if err := api.Write(context.Background(), body); err != nil {
		fmt.Fprintln(os.Stderr, name, "push failed:", err)
		return false
	}
	return true
}

// ---- Not reported: the library's default client, reported once where writeapi makes it ----

func pushDefault(addr string, body []byte) error {
	api, err := writeapi.New(addr)
	if err != nil {
		return err
	}
	return api.Write(context.Background(), body)
}

// ---- Reported: a client without a Timeout that this package hands in ----

func pushUntimed(addr string, body []byte) error {
	api, err := writeapi.New(addr, writeapi.WithHTTPClient(&http.Client{Transport: http.DefaultTransport}))
	if err != nil {
		return err
	}
	return api.Write(context.Background(), body) // related "writeapi.go:59: API.Write passes its context to Client.Do" "usewriteapi.go:60: context.Background() has no deadline" // want `API\.Write passes a context without a deadline to Client\.Do, so a stalled server hangs this call; use context\.WithTimeout`
}

// pushWith is handed an API by a caller that built it with an untimed client: reported.
func pushWith(api *writeapi.API, body []byte) error {
	return api.Write(context.Background(), body) // related "writeapi.go:59: API.Write passes its context to Client.Do" "usewriteapi.go:65: context.Background() has no deadline" // want `API\.Write passes a context without a deadline to Client\.Do, so a stalled server hangs this call; use context\.WithTimeout`
}

func pushBoth(addr string, body []byte) error {
	api, err := writeapi.New(addr, writeapi.WithHTTPClient(&http.Client{}))
	if err != nil {
		return err
	}
	return pushWith(api, body)
}
