package loops

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"time"
)

// A plugin that holds one client per cluster agent and picks one that answers, starting at
// the last good one: each agent is asked once, in turn. It fails over; it does not retry.

type nodeClient struct {
	addr string
	hc   *http.Client
}

type nodeAgent struct{ c *nodeClient }

func (c *nodeClient) Agent() *nodeAgent { return &nodeAgent{c: c} }

func (a *nodeAgent) Self(ctx context.Context) (map[string]any, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.c.addr+"/v1/agent/self", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "node-plugin/1.0")
	resp, err := a.c.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("agent %s: %w", a.c.addr, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("agent %s: %s", a.c.addr, resp.Status)
	}
	var self map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&self); err != nil {
		return nil, fmt.Errorf("agent %s: decode: %w", a.c.addr, err)
	}
	return self, nil
}

type nodePlugin struct {
	clients []*nodeClient
	current int
}

func newNodePlugin(addrs []string) *nodePlugin {
	p := &nodePlugin{}
	for _, a := range addrs {
		p.clients = append(p.clients, &nodeClient{addr: a, hc: &http.Client{Timeout: 5 * time.Second}})
	}
	return p
}

// ---- Not reported: each agent once, from the last good one (for i := range len(...)) ----

func (p *nodePlugin) client(ctx context.Context) (*nodeClient, error) {
	if len(p.clients) == 1 {
		return p.clients[0], nil
	}
	for i := range len(p.clients) {
		idx := (p.current + i) % len(p.clients)
		if _, err := p.clients[idx].Agent().Self(ctx); err != nil {
			log.Printf("agent %s unavailable: %v", p.clients[idx].addr, err)
			continue
		}
		p.current = idx
		return p.clients[idx], nil
	}
	return nil, fmt.Errorf("no agent of %d available", len(p.clients))
}

// ---- Not reported: the same with a counted loop ----

func (p *nodePlugin) clientCounted(ctx context.Context) (*nodeClient, error) {
	for i := 0; i < len(p.clients); i++ {
		idx := (p.current + i) % len(p.clients)
		if _, err := p.clients[idx].Agent().Self(ctx); err == nil {
			p.current = idx
			return p.clients[idx], nil
		}
	}
	return nil, fmt.Errorf("no agent available")
}

// ---- Reported: five rounds over fewer agents ask the same ones again, at once ----

func (p *nodePlugin) clientFive(ctx context.Context) (*nodeClient, error) {
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ { // related "agents.go:94: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		idx := (p.current + attempt) % len(p.clients)
		if _, err := p.clients[idx].Agent().Self(ctx); err != nil {
			lastErr = err
			continue
		}
		return p.clients[idx], nil
	}
	return nil, fmt.Errorf("no agent after 5 attempts: %w", lastErr)
}
