// Package leaserenew keeps a port mapping on the local gateway: a long-running loop renews
// the lease on a timer it resets at the end of every round, whatever the renewal did. The
// reset is the schedule's period, not a wait after a failure: not reported. The relay
// reconnect loop below waits a fixed delay only after its dial failed: reported.
package leaserenew

import (
	"context"
	"log"
	"net"
	"time"
)

type gateway interface {
	AddPortMapping(protocol string, external, internal int, desc string, lease time.Duration) (int, error)
	ExternalAddress() (net.IP, error)
	DeletePortMapping(protocol string, external, internal int) error
}

type Mapper struct {
	gw    gateway
	port  int
	quit  chan struct{}
	addrs chan net.Addr
}

func (m *Mapper) renewLoop() {
	timer := time.NewTimer(0)
	announced := false
loop:
	for {
		select {
		case <-timer.C:
			ext, err := m.gw.AddPortMapping("tcp", m.port, m.port, "node listen port", 20*time.Minute)
			if err != nil {
				log.Printf("port mapping: %v", err)
			}
			if !announced && err == nil {
				ip, err := m.gw.ExternalAddress()
				if err != nil {
					log.Printf("external address: %v", err)
					continue loop
				}
				m.addrs <- &net.TCPAddr{IP: ip, Port: ext}
				announced = true
			}
			timer.Reset(15 * time.Minute)
		case <-m.quit:
			break loop
		}
	}
	timer.Stop()
	if err := m.gw.DeletePortMapping("tcp", m.port, m.port); err != nil {
		log.Printf("remove port mapping: %v", err)
	}
}

// relay keeps a connection to a relay, dialling again a fixed 5s after each failure.
func relay(ctx context.Context, addr string, serve func(net.Conn) error) {
	var d net.Dialer
	for {
		conn, err := d.DialContext(ctx, "tcp", addr)
		if err != nil {
			log.Printf("relay %s: %v", addr, err)
			select {
			case <-ctx.Done():
				return
			case <-time.After(5 * time.Second): // related "leaserenew.go:61: long-running loop" // want `long-running loop waits a fixed 5s between attempts, so clients that failed together retry together; add jitter`
			}
			continue
		}
		if err := serve(conn); err != nil {
			log.Printf("relay %s closed: %v", addr, err)
		}
		conn.Close()
	}
}
