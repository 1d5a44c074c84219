// Package probes measures exit nodes and answers health probes. Its loops that run a fixed
// number of rounds (three latency probes per node) or serve their own socket (a UDP responder
// whose failed deadline setting goes round) are not retries of a dependency and not
// long-running reconnects; the watcher that dials its hub again at once after a failure is.
package probes

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"
)

// Node is an exit node.
type Node struct {
	ID       int
	Endpoint string
}

// Result is a node's measured latency.
type Result struct {
	Node    Node
	Latency time.Duration
	Err     error
}

const probeCount = 3

// ---- Not reported: three probes per node, answered or not: a measurement ----

// Measure probes every node probeCount times and averages the latencies of the answers.
func Measure(nodes []Node, logger *slog.Logger) []Result {
	results := make([]Result, len(nodes))
	for i, node := range nodes {
		client := &http.Client{Timeout: 5 * time.Second}
		url := node.Endpoint
		if !strings.HasPrefix(url, "http://") && !strings.HasPrefix(url, "https://") {
			url = "http://" + url
		}
		url = strings.TrimRight(url, "/") + "/ping"
		var total time.Duration
		var lastErr error
		ok := 0
		for j := 0; j < probeCount; j++ {
			start := time.Now()
			resp, err := client.Get(url)
			took := time.Since(start)
			if err != nil {
				lastErr = err
				logger.Warn("probe failed", "node", node.ID, "attempt", j+1, "err", err)
				continue
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			total += took
			ok++
		}
		if ok == 0 {
			results[i] = Result{Node: node, Err: lastErr}
			continue
		}
		results[i] = Result{Node: node, Latency: total / time.Duration(ok)}
	}
	return results
}

// ---- Not reported: a responder reading its own socket ----

// Responder answers health probes on a UDP socket until stop is closed. conn is the socket
// as a net.Conn (a kernel socket or a userspace stack's), udp the kernel one.
type Responder struct {
	conn   net.Conn
	udp    *net.UDPConn
	stop   chan struct{}
	logger *slog.Logger
}

// Serve echoes every probe back to its sender.
func (r *Responder) Serve() {
	buf := make([]byte, 1500)
	for {
		select {
		case <-r.stop:
			return
		default:
		}
		if err := r.conn.SetReadDeadline(time.Now().Add(time.Second)); err != nil {
			r.logger.Error("set read deadline", "err", err)
			continue
		}
		n, addr, err := r.udp.ReadFromUDP(buf)
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			if errors.Is(err, net.ErrClosed) {
				return
			}
			r.logger.Error("read probe", "err", err)
			continue
		}
		if n < 4 || string(buf[:4]) != "PING" {
			continue
		}
		if _, err := r.udp.WriteToUDP(append([]byte("PONG"), buf[4:n]...), addr); err != nil {
			r.logger.Warn("answer probe", "to", addr, "err", err)
		}
	}
}

// ---- Reported: a watcher that dials its hub again at once when the dial fails ----

// Watch keeps a connection to the hub and logs what it says.
func Watch(hub string, logger *slog.Logger) {
	for { // related "probes.go:120: long-running loop" // want `long-running loop goes round at once when its remote call fails: it spins against a failing dependency`
		conn, err := net.DialTimeout("tcp", hub, 5*time.Second)
		if err != nil {
			logger.Warn("dial hub", "err", err)
			continue
		}
		buf := make([]byte, 4096)
		for {
			n, err := conn.Read(buf)
			if err != nil {
				logger.Info("hub closed", "err", err)
				break
			}
			fmt.Print(string(buf[:n]))
		}
		conn.Close()
	}
}
