// Package eventsub subscribes to a server's event stream (Server-Sent Events) and posts
// commands back. The subscription asks for text/event-stream and hands the response to a
// reader of its own: a client Timeout would cut the stream, so the default client is reported
// for the commands only, with the stream as a note.
package eventsub

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

type Transport struct {
	Endpoint   string
	HTTPClient *http.Client
	Token      string
}

type Event struct {
	ID   string
	Name string
	Data []byte
}

func (t *Transport) client() *http.Client {
	if t.HTTPClient != nil {
		return t.HTTPClient
	}
	return http.DefaultClient // related "eventsub.go:105: Transport.Send sends a request with its caller's context through it" "eventsub.go:32: a client given here replaces the default" "eventsub.go:49: Transport.open reads a stream through it, which a Timeout would cut" // want `the default, http\.DefaultClient, has no Timeout, so Transport\.Send can hang; it also reads a stream`
}

// open starts the subscription; its answer is read by Subscribe's reader for as long as the
// server sends.
func (t *Transport) open(ctx context.Context, lastID string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, t.Endpoint+"/events", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Authorization", "Bearer "+t.Token)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := t.client().Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, fmt.Errorf("eventsub: subscribe: %s", resp.Status)
	}
	return resp, nil
}

func (t *Transport) Subscribe(ctx context.Context, lastID string) (<-chan Event, error) {
	resp, err := t.open(ctx, lastID)
	if err != nil {
		return nil, err
	}
	out := make(chan Event)
	go readEvents(resp.Body, out)
	return out, nil
}

func readEvents(body io.ReadCloser, out chan<- Event) {
	defer body.Close()
	defer close(out)
	sc := bufio.NewScanner(body)
	var ev Event
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if ev.Data != nil {
				out <- ev
			}
			ev = Event{}
		case strings.HasPrefix(line, "id:"):
			ev.ID = strings.TrimSpace(line[3:])
		case strings.HasPrefix(line, "event:"):
			ev.Name = strings.TrimSpace(line[6:])
		case strings.HasPrefix(line, "data:"):
			ev.Data = append(ev.Data, strings.TrimSpace(line[5:])...)
		}
	}
}

// Send posts a command with the caller's context: the default client has no Timeout for it.
func (t *Transport) Send(ctx context.Context, cmd any) error {
	body, err := json.Marshal(cmd)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.Endpoint+"/commands", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+t.Token)
	resp, err := t.client().Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("eventsub: send: %s", resp.Status)
	}
	return nil
}
