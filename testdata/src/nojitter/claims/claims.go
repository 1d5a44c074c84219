// Package claims keeps partition ownership in a coordination service. The client hands each
// request to the goroutine that owns the connection: the calls leave the process all the same.
package claims

import (
	"errors"
	"fmt"
	"log"
	"path"
	"time"

	"example.com/coord"
)

type Model struct {
	conn    *coord.Conn
	root    string
	backoff time.Duration
}

func New(conn *coord.Conn, root string) *Model {
	return &Model{conn: conn, root: root, backoff: 500 * time.Millisecond}
}

// ---- Not reported: the loop goes round only once it has created the missing parent ----

// createNode creates a node, creating its parents when another member removed them.
func (m *Model) createNode(p string, val []byte) error {
	for {
		_, err := m.conn.Create(p, val, 0)
		if err != nil {
			if err != coord.ErrNoNode {
				return fmt.Errorf("create %s: %w", p, err)
			}
			if err := m.createParent(p); err != nil {
				return fmt.Errorf("create %s parent: %w", p, err)
			}
			continue
		}
		return nil
	}
}

func (m *Model) createParent(p string) error {
	err := m.createNode(path.Dir(p), nil)
	if err != nil && !errors.Is(err, coord.ErrNodeExists) {
		return err
	}
	return nil
}

// ---- Reported: claims retried for ever at a fixed pace ----

// Claim takes ownership of a partition, trying until it gets it.
func (m *Model) Claim(topic string, partition int32, member string) {
	owner := path.Join(m.root, "owners", topic, fmt.Sprint(partition))
	retries := 0
	for { // related "claims.go:58: retry loop" // want `retry loop retries for ever \(no attempt cap, no deadline\); count the attempts and stop after a few`
		err := m.createNode(owner, []byte(member))
		if err == nil {
			break
		}
		retries++
		log.Printf("claim %s/%d: %v (retries=%d)", topic, partition, err, retries)
		<-time.After(m.backoff) // related "claims.go:58: retry loop" // want `retry loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
	}
}

// Release gives up ownership, trying until the coordination service takes it.
func (m *Model) Release(topic string, partition int32) {
	owner := path.Join(m.root, "owners", topic, fmt.Sprint(partition))
	for { // related "claims.go:72: retry loop" // want `retry loop retries for ever \(no attempt cap, no deadline\); count the attempts and stop after a few`
		err := m.conn.Delete(owner, -1)
		if err == nil || err == coord.ErrNoNode {
			return
		}
		log.Printf("release %s/%d: %v", topic, partition, err)
		<-time.After(m.backoff) // related "claims.go:72: retry loop" // want `retry loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
	}
}
