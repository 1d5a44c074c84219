// Package sleepsignal ships metric batches to a collector. Between attempts it waits in a
// goroutine that closes a channel once it has slept, raced with the context: a timer made by
// hand.
package sleepsignal

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"time"
)

type Point struct {
	Name  string            `json:"name"`
	Value float64           `json:"value"`
	Tags  map[string]string `json:"tags"`
	At    time.Time         `json:"at"`
}

type Shipper struct {
	Endpoint string
	Token    string
	HTTP     *http.Client
}

// Ship tries a batch five times, two seconds apart: every shipper that lost the collector at
// the same moment comes back at the same moment.
func (s *Shipper) Ship(ctx context.Context, batch []Point) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = s.push(ctx, batch); err == nil {
			return nil
		}
		log.Printf("ship: attempt %d: %v", attempt, err)
		wake := make(chan struct{})
		go func() {
			time.Sleep(2 * time.Second) // related "sleepsignal.go:33: retry loop" // want `retry loop waits a fixed 2s between attempts, so clients that failed together retry together; add jitter`
			close(wake)
		}()
		select {
		case <-wake:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return fmt.Errorf("ship: giving up: %w", err)
}

// ShipAfterWarmup starts one sleeper before its loop: its channel is closed once, so only the
// first failure waits, and the rounds after it go round at once.
func (s *Shipper) ShipAfterWarmup(ctx context.Context, batch []Point) error {
	var err error
	warm := make(chan struct{})
	go func() {
		time.Sleep(2 * time.Second)
		close(warm)
	}()
	for attempt := 0; attempt < 5; attempt++ { // related "sleepsignal.go:61: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		if err = s.push(ctx, batch); err == nil {
			return nil
		}
		select {
		case <-warm:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return err
}

// Flush sends each batch of a queue once, handing it to a goroutine whose end it waits for
// or gives up on: the goroutine does the work, it is not a timer, and the loop goes on to
// the next batch (not reported).
func (s *Shipper) Flush(ctx context.Context, batches [][]Point) error {
	for _, batch := range batches {
		done := make(chan struct{})
		var err error
		go func() {
			err = s.push(ctx, batch)
			close(done)
		}()
		select {
		case <-done:
		case <-ctx.Done():
			return ctx.Err()
		}
		if err != nil {
			log.Printf("flush: %v", err)
		}
	}
	return nil
}

func (s *Shipper) push(ctx context.Context, batch []Point) error {
	body, err := json.Marshal(batch)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, s.Endpoint+"/v1/points", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+s.Token)
	resp, err := s.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("collector: %s", resp.Status)
	}
	return nil
}
