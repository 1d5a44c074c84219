package loops

import (
	"context"
	"errors"
	"log"
	"net"
	"sync"
	"time"
)

// A publisher that waits for a connection, then drains a queue of messages kept by a store
// behind an interface; when the store fails it waits a fixed second and asks again. Three
// loops go round through that wait: it is one finding, for the loop that asks again.

var errQueueEmpty = errors.New("queue empty")

type messageStore interface {
	Peek() ([]byte, error)
	Remove() error
	Ready() <-chan struct{}
}

type publisher struct {
	mu    sync.Mutex
	conn  net.Conn
	down  chan struct{}
	store messageStore
	ready chan struct{}
}

func (p *publisher) awaitConnection(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-p.ready:
		return nil
	}
}

func (p *publisher) run(ctx context.Context) error {
connection:
	for {
		if err := p.awaitConnection(ctx); err != nil {
			return err
		}
		p.mu.Lock()
		conn, down := p.conn, p.down
		p.mu.Unlock()
		if conn == nil {
			continue
		}
	queue:
		for {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-down:
				continue connection
			case <-p.store.Ready():
			}
			for {
				msg, err := p.store.Peek()
				if errors.Is(err, errQueueEmpty) {
					continue queue
				} else if err != nil {
					log.Printf("peek: %v", err)
					time.Sleep(time.Second) // related "nestedlife.go:62: long-running loop" // want `long-running loop waits a fixed 1s between attempts, so clients that failed together retry together; add jitter`
					continue
				}
				if err := conn.SetWriteDeadline(time.Now().Add(10 * time.Second)); err != nil {
					continue connection
				}
				if _, err := conn.Write(msg); err != nil {
					log.Printf("publish: %v", err)
					continue connection
				}
				if err := p.store.Remove(); err != nil {
					log.Printf("remove: %v", err)
				}
			}
		}
	}
}
