// Package nsfailover resolves names by asking name servers directly. A lookup that fails is
// sent again at once to a server picked at random from the set: each attempt goes to another
// server (most likely), which spreads the load and needs no wait. Asking the same server
// again at once hammers it.
package nsfailover

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"sort"
	"time"
)

// NS is one name server.
type NS struct {
	Host string
	Port int
}

var rootServers = []NS{{Host: "a.root.example", Port: 53}, {Host: "b.root.example", Port: 53}, {Host: "c.root.example", Port: 53}}

// Lookup asks one server.
type Lookup interface {
	NS(ctx context.Context, domain string) ([]NS, error)
}

type direct struct{ addr string }

func (d direct) NS(ctx context.Context, domain string) ([]NS, error) {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	r := &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		var dl net.Dialer
		return dl.DialContext(ctx, network, d.addr)
	}}
	found, err := r.LookupNS(ctx, domain)
	if err != nil {
		return nil, fmt.Errorf("ask %s: %w", d.addr, err)
	}
	out := make([]NS, 0, len(found))
	for _, ns := range found {
		out = append(out, NS{Host: ns.Host, Port: 53})
	}
	return out, nil
}

// at is replaced by tests.
var at = func(ns NS) Lookup { return direct{addr: net.JoinHostPort(ns.Host, fmt.Sprint(ns.Port))} }

// Delegation walks down from the roots to the servers of domain, asking a random server of
// each level, and another random one (three tries in all) when one fails.
func Delegation(ctx context.Context, domain string) ([]NS, error) {
	servers := rootServers
	tries := 3
	for {
		server := servers[rand.IntN(len(servers))]
		found, err := at(server).NS(ctx, domain)
		if err != nil {
			slog.Debug("name server failed", "server", server.Host, "err", err)
			if tries--; tries > 0 {
				continue
			}
			return nil, err
		}
		sort.Slice(found, func(i, j int) bool { return found[i].Host < found[j].Host })
		if len(found) == 0 || same(found, servers) {
			return servers, nil
		}
		servers = found
	}
}

// Pinned asks the first server of the set, three times in a row: the same server again at once.
func Pinned(ctx context.Context, domain string, servers []NS) ([]NS, error) {
	if len(servers) == 0 {
		return nil, errors.New("no name servers")
	}
	var last error
	for try := 0; try < 3; try++ { // related "nsfailover.go:83: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		server := servers[0]
		found, err := at(server).NS(ctx, domain)
		if err != nil {
			slog.Debug("name server failed", "server", server.Host, "err", err)
			last = err
			continue
		}
		return found, nil
	}
	return nil, last
}

// Client sends queries to one of several API hosts.
type Client struct {
	hosts []string
	hc    *net.Dialer
}

// Ping dials a random host of the client's list each try.
func (c *Client) Ping(ctx context.Context) error {
	var err error
	for try := 0; try < 4; try++ {
		host := c.hosts[rand.IntN(len(c.hosts))]
		var conn net.Conn
		if conn, err = c.hc.DialContext(ctx, "tcp", host); err != nil {
			slog.Warn("ping failed", "host", host, "err", err)
			continue
		}
		return conn.Close()
	}
	return fmt.Errorf("no host answered: %w", err)
}

func same(a, b []NS) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Host != b[i].Host {
			return false
		}
	}
	return true
}
