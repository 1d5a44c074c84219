package loops

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"math/rand/v2"
	"net/http"
	"net/url"
	"time"
)

type accountEvent struct {
	ID string    `json:"id"`
	At time.Time `json:"at"`
}

type eventsClient struct {
	base string
	hc   *http.Client
}

// stream reads the account's events since a point in time, calling handler for each, until
// the stream ends or fails.
func (c *eventsClient) stream(ctx context.Context, since time.Time, handler func(accountEvent)) error {
	q := url.Values{}
	if !since.IsZero() {
		q.Set("since", since.Format(time.RFC3339Nano))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/v2/events?"+q.Encode(), nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("events: %s", resp.Status)
	}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		var ev accountEvent
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			continue
		}
		handler(ev)
	}
	return sc.Err()
}

// followEvents re-opens the stream at once after any error, from the last event it saw: a
// server that answers 429 or 503 gets the request straight back, for ever.
func (c *eventsClient) followEvents(ctx context.Context, handler func(accountEvent)) {
	go func() {
		var last time.Time
		for { // related "resume.go:62: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
			since := time.Time{}
			if !last.IsZero() {
				since = last.Add(time.Nanosecond)
			}
			err := c.stream(ctx, since, func(ev accountEvent) {
				last = ev.At
				handler(ev)
			})
			if err == nil || errors.Is(err, context.Canceled) {
				return
			}
			log.Printf("events stream: %v", err)
		}
	}()
}

// followEventsPaced does the same with a jittered pause between attempts. Not reported.
func (c *eventsClient) followEventsPaced(ctx context.Context, handler func(accountEvent)) {
	go func() {
		var last time.Time
		for {
			since := time.Time{}
			if !last.IsZero() {
				since = last.Add(time.Nanosecond)
			}
			err := c.stream(ctx, since, func(ev accountEvent) {
				last = ev.At
				handler(ev)
			})
			if err == nil || errors.Is(err, context.Canceled) {
				return
			}
			log.Printf("events stream: %v", err)
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Second + rand.N(2*time.Second)):
			}
		}
	}()
}
