package loops

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net"
	"net/http"
	"strings"
	"time"
)

// A relay client: Accept takes an invitation by POSTing to the relay and returns the session the
// relay opened. Its name and its result's RemoteAddr are a listener's, but the receiver is not a
// listener (it has no Addr or Close): each call is a request to the relay, and the loop that
// accepts again after a failure reconnects to it.
type relayClient struct {
	base string
	hc   *http.Client
}

type relaySession struct {
	ID   string `json:"id"`
	Peer string `json:"peer"`
}

func (s *relaySession) RemoteAddr() net.Addr {
	addr, _ := net.ResolveTCPAddr("tcp", s.Peer)
	return addr
}

func (r *relayClient) Accept(ctx context.Context, invite string) (*relaySession, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.base+"/invites/"+invite+"/accept", strings.NewReader("{}"))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := r.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("relay: accept %s: %s", invite, resp.Status)
	}
	var s relaySession
	if err := json.NewDecoder(resp.Body).Decode(&s); err != nil {
		return nil, fmt.Errorf("relay: decode session: %w", err)
	}
	return &s, nil
}

// ---- Reported: a long-running loop that accepts the next invitation from the relay and, when the relay fails, waits a fixed second ----

func (r *relayClient) serveInvites(ctx context.Context, invite string, handle func(*relaySession)) {
	for ctx.Err() == nil {
		s, err := r.Accept(ctx, invite)
		if err != nil {
			log.Printf("relay: accept failed: %v", err)
			time.Sleep(time.Second) // related "acceptinvite.go:58: long-running loop" // want `long-running loop waits a fixed 1s between attempts, so clients that failed together retry together; add jitter`
			continue
		}
		log.Printf("relay: session %s from %s", s.ID, s.RemoteAddr())
		handle(s)
	}
}
