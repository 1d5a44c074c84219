package loops

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"time"
)

// Retrying one kind of failure, named by a sentinel or a type: the loop goes round while the
// call fails that way, and leaves on success or on any other error.
var errNoResponders = errors.New("no responders available for request")

type bus struct {
	attempts int
	wait     time.Duration
}

type message struct {
	subject string
	data    []byte
	header  map[string][]string
}

func (b *bus) request(ctx context.Context, m *message) (*message, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return &message{subject: m.subject + ".reply"}, nil
}

func (b *bus) publish(ctx context.Context, subject string, data []byte) (*message, error) { // want publish:`retries: retry loop at sentinel.go:38, attempts=variable`
	m := &message{subject: subject, data: data, header: map[string][]string{"Nats-Msg-Id": {subject}}}
	resp, err := b.request(ctx, m)
	if err != nil {
		for r := 0; errors.Is(err, errNoResponders) && r < b.attempts; r++ { // want `retry loop: attempts=variable wait=fixed deadline=context`
			select {
			case <-ctx.Done():
			case <-time.After(b.wait):
			}
			resp, err = b.request(ctx, m)
		}
		if err != nil {
			if errors.Is(err, errNoResponders) {
				return nil, fmt.Errorf("no stream answered on %s", subject)
			}
			return nil, err
		}
	}
	return resp, nil
}

// Reading until the end: io.EOF ends the loop, it is not a failure retried.
func (b *bus) readAll(ctx context.Context, next func() (*message, error)) ([]*message, error) {
	var out []*message
	for {
		m, err := next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			log.Printf("read: %v", err)
			return out, err
		}
		out = append(out, m)
	}
}

// A protocol's next step: when the server says its broker is gone, ask the cluster for
// another and send again at once. Going round on that one answer without waiting is not a
// retry of the request.
var errUnknownBroker = errors.New("unknown broker")

type busNode struct{ id int }

func (b *bus) sendVia(ctx context.Context, n *busNode, m *message) (*message, error) {
	return b.request(ctx, m)
}

func (b *bus) anyNode(ctx context.Context) (*busNode, error) { return &busNode{}, nil }

func (b *bus) push(ctx context.Context, pinned *busNode, m *message) (*message, error) {
	var resp *message
	var err error
again:
	if pinned == nil {
		if pinned, err = b.anyNode(ctx); err != nil {
			return nil, err
		}
	}
	resp, err = b.sendVia(ctx, pinned, m)
	if errors.Is(err, errUnknownBroker) {
		log.Printf("broker %d is gone, picking another", pinned.id)
		pinned = nil
		goto again
	}
	return resp, err
}
