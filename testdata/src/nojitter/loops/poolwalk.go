package loops

import (
	"encoding/json"
	"fmt"
	"log"
	"math/rand/v2"
	"net"
	"time"
)

// A tunnel server hands each visitor a work connection from the client's pool: it takes one,
// tells it to start, and when that fails closes it and takes the next, as many times as the
// pool holds connections. Each round tries another connection; none is sent twice.

type startMsg struct {
	Proxy   string `json:"proxy"`
	SrcAddr string `json:"src_addr"`
}

type workConn struct {
	conn net.Conn
}

func (w *workConn) start(m startMsg) (net.Conn, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	if _, err := w.conn.Write(b); err != nil {
		return nil, fmt.Errorf("start work connection: %w", err)
	}
	return w.conn, nil
}

func (w *workConn) Close() error { return w.conn.Close() }

type tunnelProxy struct {
	name      string
	poolCount int
	take      func() (*workConn, error)
}

// workConn takes connections from the pool until one starts: not reported.
func (p *tunnelProxy) workConn(src net.Addr) (net.Conn, error) {
	var err error
	for i := 0; i < p.poolCount+1; i++ {
		wc, terr := p.take()
		if terr != nil {
			return nil, terr
		}
		var c net.Conn
		c, err = wc.start(startMsg{Proxy: p.name, SrcAddr: src.String()})
		if err != nil {
			log.Printf("work connection %d of %s: %v", i, p.name, err)
			wc.Close()
			continue
		}
		return c, nil
	}
	return nil, fmt.Errorf("no work connection for %s: %w", p.name, err)
}

// startAgain tells the same connection to start again and again: reported.
func (p *tunnelProxy) startAgain(wc *workConn, src net.Addr) (net.Conn, error) {
	var err error
	for i := 0; i < 3; i++ { // related "poolwalk.go:67: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		var c net.Conn
		c, err = wc.start(startMsg{Proxy: p.name, SrcAddr: src.String()})
		if err == nil {
			return c, nil
		}
		log.Printf("start %s: %v", p.name, err)
	}
	return nil, err
}

// A UDP proxy keeps one work connection for as long as the proxy lives: when it cannot get one
// it waits and tries again, and it stops once the proxy closes its check channel. A
// lifecycle that its owner ends; no cap is missing.
type udpProxy struct {
	tunnelProxy
	checkClose chan int
	current    net.Conn
	serve      func(net.Conn)
}

func (p *udpProxy) supervise() {
	for {
		c, err := p.workConn(nil)
		if err != nil {
			time.Sleep(time.Duration(rand.Int64N(int64(2 * time.Second))))
			select {
			case _, ok := <-p.checkClose:
				if !ok {
					return
				}
			default:
			}
			continue
		}
		if p.current != nil {
			p.current.Close()
		}
		p.current = c
		go p.serve(c)
		// Serve it until the connection breaks (a send on the check channel) or the proxy
		// closes (the channel closed).
		if _, ok := <-p.checkClose; !ok {
			return
		}
	}
}
