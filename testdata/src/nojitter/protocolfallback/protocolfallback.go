// Package protocolfallback connects a monitoring agent to its server. The agent tries the v2
// endpoint, falls back once to v1 when the server says it does not speak v2, and otherwise
// tries the same endpoint again after a fixed interval, up to a configured number of times.
// The protocol variable changes on one way round, to a constant: a one-time fallback, not a
// walk over a range of targets, so the loop is still a retry of one endpoint.
package protocolfallback

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"strings"
	"time"
)

// Flags are the agent's settings.
type Flags struct {
	Server            string
	Token             string
	MaxRetries        int
	ReconnectInterval int // seconds
	DialTimeout       time.Duration
}

var errUnsupported = errors.New("protocol not supported by server")

func endpoint(server string, proto int) string {
	if proto >= 2 {
		return server + ":9443"
	}
	return server + ":9080"
}

func connect(ctx context.Context, f Flags, addr string, proto int) (net.Conn, error) {
	d := net.Dialer{Timeout: f.DialTimeout}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	if _, err := fmt.Fprintf(conn, "HELLO v%d %s\n", proto, f.Token); err != nil {
		conn.Close()
		return nil, err
	}
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		conn.Close()
		return nil, err
	}
	if strings.HasPrefix(line, "UNSUPPORTED") {
		conn.Close()
		return nil, errUnsupported
	}
	return conn, nil
}

// ---- Reported: a one-time fallback does not make the fixed interval a walk over targets ----

// Connect returns a connection to the server, by v2 if it can.
func Connect(ctx context.Context, f Flags) (net.Conn, int, error) {
	proto := 2
	retry := 0
	for retry <= f.MaxRetries {
		if retry > 0 {
			log.Printf("retrying connection to %s (attempt %d)", f.Server, retry)
		}
		conn, err := connect(ctx, f, endpoint(f.Server, proto), proto)
		if err == nil {
			log.Printf("connected using v%d", proto)
			return conn, proto, nil
		}
		if proto >= 2 && errors.Is(err, errUnsupported) {
			log.Printf("v2 not supported (%v), falling back to v1", err)
			proto = 1
			retry = 0
			continue
		}
		log.Printf("connect: %v", err)
		retry++
		time.Sleep(time.Duration(f.ReconnectInterval) * time.Second) // related "protocolfallback.go:65: retry loop" // want `retry loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
	}
	return nil, 0, fmt.Errorf("connect to %s: gave up after %d attempts", f.Server, f.MaxRetries)
}

// ---- Not reported: each round tries the next older protocol, a walk over versions ----

// Negotiate tries each protocol from the newest down and keeps the first the server accepts.
func Negotiate(ctx context.Context, f Flags) (net.Conn, int, error) {
	for proto := 3; proto >= 1; proto-- {
		conn, err := connect(ctx, f, endpoint(f.Server, proto), proto)
		if err == nil {
			return conn, proto, nil
		}
		if !errors.Is(err, errUnsupported) {
			return nil, 0, err
		}
		log.Printf("v%d not supported, trying v%d", proto, proto-1)
		time.Sleep(100 * time.Millisecond)
	}
	return nil, 0, errors.New("no common protocol")
}
