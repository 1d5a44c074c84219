package loops

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net/http"
	"time"
)

// A job runner that long-polls a broker for its next message. The broker holds the poll and
// answers 204 when nothing came; the client turns that answer into io.EOF, its own word for
// "nothing yet", and asks again at once: the broker paces that, it is no failure. After a
// message arrives the runner acknowledges it, through a helper that retries on its own: that
// helper's waits are part of the work, not the wait between polls. The one wait between
// attempts is the fixed 10 s after a failed poll.
type broker struct {
	hc   *http.Client
	base string
}

type brokerMessage struct {
	ID   int64  `json:"id"`
	Body string `json:"body"`
}

func (b *broker) get(ctx context.Context, path string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.base+path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := b.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNoContent:
		return io.EOF
	case resp.StatusCode >= 300:
		return fmt.Errorf("broker: %s: %s", path, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// ack deletes a message, trying a few times.
func (b *broker) ack(ctx context.Context, id int64) error {
	var err error
	for i := 0; i < 3; i++ {
		req, rerr := http.NewRequestWithContext(ctx, http.MethodDelete, fmt.Sprintf("%s/messages/%d", b.base, id), nil)
		if rerr != nil {
			return rerr
		}
		resp, derr := b.hc.Do(req)
		if derr == nil {
			resp.Body.Close()
			return nil
		}
		err = derr
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(i+1) * 500 * time.Millisecond): // related "longpoll.go:54: retry loop" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
		}
	}
	return err
}

func (b *broker) Next(ctx context.Context) (*brokerMessage, error) {
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		default:
		}
		msg := &brokerMessage{}
		err := b.get(ctx, "/message", msg)
		if err == nil {
			err = b.ack(ctx, msg.ID)
		}
		if err != nil {
			if errors.Is(err, context.Canceled) {
				return nil, err
			}
			if !errors.Is(err, io.EOF) {
				log.Printf("broker: get message: %v; retrying in 10s", err)
				select {
				case <-ctx.Done():
					return nil, ctx.Err()
				case <-time.After(10 * time.Second): // related "longpoll.go:75: retry loop" // want `retry loop waits a fixed 10s between attempts, so clients that failed together retry together; add jitter`
				}
			}
			continue
		}
		return msg, nil
	}
}

// A replay buffer of the package ends its own reads with io.EOF. That says nothing about the
// feed below, whose io.EOF is the server closing the stream: going round on it at once, beside
// the wait after other failures, hammers the server.
type replayBuffer struct {
	lines []string
}

func (r *replayBuffer) Next() (string, error) {
	if len(r.lines) == 0 {
		return "", io.EOF
	}
	line := r.lines[0]
	r.lines = r.lines[1:]
	return line, nil
}

func (b *broker) Stream(ctx context.Context, out chan<- []byte) error {
	for { // related "longpoll.go:121: retry loop" "longpoll.go:136: goes round here without waiting" // want `retry loop goes round without waiting after some failures: it hammers a failing dependency`
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.base+"/stream", nil)
		if err != nil {
			return err
		}
		resp, err := b.hc.Do(req)
		if err == nil {
			var body []byte
			body, err = io.ReadAll(resp.Body)
			resp.Body.Close()
			if err == nil {
				out <- body
				return nil
			}
		}
		if errors.Is(err, io.EOF) {
			continue
		}
		log.Printf("broker: stream: %v", err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second + rand.N(time.Second)):
		}
	}
}
