// Package answerwork is a job runner that polls for its next message, retrying a failed poll
// every 10 s. Once a poll succeeds it handles the message; a migration message makes it fetch
// from the new broker, which retries on its own. When that handling fails the loop polls again,
// for another message: it does not repeat the handling, so nothing multiplies. A loop that
// goes round on the failure of a retrying call it makes itself, each round, does multiply.
package answerwork

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"time"
)

type Runner struct {
	hc     *http.Client
	broker string
}

type Message struct {
	ID   int64  `json:"id"`
	Kind string `json:"kind"`
	Body string `json:"body"`
}

func (r *Runner) poll(ctx context.Context) (*Message, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.broker+"/message", nil)
	if err != nil {
		return nil, err
	}
	resp, err := r.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("poll: %s", resp.Status)
	}
	var m Message
	return &m, json.NewDecoder(resp.Body).Decode(&m)
}

// follow asks the broker a migration message names, up to five times.
func (r *Runner) follow(ctx context.Context, m *Message) error {
	if m.Kind != "migration" {
		return nil
	}
	var err error
	for i := 0; i < 5; i++ {
		var req *http.Request
		req, err = http.NewRequestWithContext(ctx, http.MethodGet, m.Body+"/hello", nil)
		if err != nil {
			return err
		}
		var resp *http.Response
		if resp, err = r.hc.Do(req); err == nil {
			resp.Body.Close()
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(i+1) * time.Second):
		}
	}
	return err
}

func (r *Runner) Next(ctx context.Context) (*Message, error) {
	for {
		m, err := r.poll(ctx)
		if err == nil {
			err = r.follow(ctx, m)
		}
		if err == nil {
			return m, nil
		}
		if errors.Is(err, context.Canceled) {
			return nil, err
		}
		log.Printf("runner: next message: %v; retrying in 10s", err)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(10 * time.Second):
		}
	}
}

// Hello asks the current broker, retrying the retrying call itself: attempts multiply.
func (r *Runner) Hello(ctx context.Context) error {
	m := &Message{Kind: "migration", Body: r.broker}
	var err error
	for i := 0; i < 3; i++ {
		if err = r.follow(ctx, m); err == nil { // related "answerwork.go:97: outer retry loop", "answerwork.go:52: inner retry loop" // want `3 attempts around Runner\.follow, which makes 5 each: up to 15 calls on transport errors; keep one layer`
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
