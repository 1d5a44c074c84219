// Package pendingpoll logs a CLI in through a device flow: it asks for the token until the
// server stops answering 409 "authorization pending".
package pendingpoll

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// Outcome is what a call to the API gave: its error, the server's message and status.
type Outcome struct {
	Err     error
	Message string
	Status  int
}

// Failed reports whether the call failed.
func (o Outcome) Failed() bool { return o.Err != nil }

var hc = &http.Client{Timeout: 20 * time.Second}

func getJSON(ctx context.Context, url string, out any) Outcome {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return Outcome{Err: err}
	}
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return Outcome{Err: err, Message: "request failed"}
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 2048))
		return Outcome{Err: errors.New(resp.Status), Message: string(b), Status: resp.StatusCode}
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return Outcome{Err: err, Message: "decoding"}
	}
	return Outcome{}
}

// WaitForToken goes round only while the answer is 409: the server is up, the user has not
// approved yet. A fixed interval is what the flow asks for. Not reported.
func WaitForToken(ctx context.Context, base, code string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	for {
		var tok struct {
			Token string `json:"token"`
		}
		o := getJSON(ctx, base+"/v1/device/token?code="+code, &tok)
		if o.Failed() {
			if o.Status == http.StatusConflict {
				time.Sleep(2 * time.Second)
				continue
			}
			return "", fmt.Errorf("device login: %s: %w", o.Message, o.Err)
		}
		return tok.Token, nil
	}
}

// FetchProfile goes round on every failure, transport errors and 5xx included, at a fixed
// interval: clients that failed together come back together.
func FetchProfile(ctx context.Context, base string) (map[string]any, error) {
	var last Outcome
	for range 4 {
		var p map[string]any
		last = getJSON(ctx, base+"/v1/profile", &p)
		if !last.Failed() {
			return p, nil
		}
		time.Sleep(3 * time.Second) // related "pendingpoll.go:73: retry loop" // want `retry loop waits a fixed 3s between attempts, so clients that failed together retry together; add jitter`
	}
	return nil, fmt.Errorf("profile: %s: %w", last.Message, last.Err)
}

// Follow reads the event feed and, when reading fails, calls itself again at once through the
// variable it is stored in: a retry with no pause, as many times as the feed keeps failing.
func Follow(ctx context.Context, base string, handle func(map[string]any)) {
	tries := 0
	var follow func()
	follow = func() { // related "pendingpoll.go:89: retrying recursion" // want `retrying function follow goes round without waiting, so it hammers a failing dependency; wait with jitter`
		var ev map[string]any
		o := getJSON(ctx, base+"/v1/events/next", &ev)
		if o.Failed() && ctx.Err() == nil && tries < 10 {
			tries++
			follow()
			return
		}
		if !o.Failed() {
			handle(ev)
		}
	}
	follow()
}
