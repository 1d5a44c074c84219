package loops

import (
	"errors"
	"fmt"
	"log"
	"net"
)

// A packet connection that strips a relay's header from each datagram. A datagram whose
// header is bad is dropped, and the next one read: the loop works through what arrives; it
// does not retry a failed read (a failed read returns).

var errHeaderOnly = errors.New("header without payload")

type relayConn struct {
	net.PacketConn
	allow func(from net.Addr) bool // the operator's policy
}

func (c *relayConn) ReadFrom(p []byte) (int, net.Addr, error) { // want ReadFrom:"takes the next item of its receiver"
	for {
		n, addr, err := c.PacketConn.ReadFrom(p)
		if err != nil {
			return n, addr, err
		}
		from := addr
		n, addr, err = c.strip(p[:n], addr)
		if err != nil {
			if errors.Is(err, errHeaderOnly) {
				continue // a session opening: nothing to deliver
			}
			log.Printf("dropping datagram with a bad relay header from %s: %v", from, err)
			continue
		}
		return n, addr, nil
	}
}

func (c *relayConn) strip(p []byte, addr net.Addr) (int, net.Addr, error) {
	if c.allow != nil && !c.allow(addr) {
		return 0, nil, fmt.Errorf("relay from %s not allowed", addr)
	}
	if len(p) < 16 {
		return 0, nil, fmt.Errorf("short header: %d bytes", len(p))
	}
	if p[0] != 0x0d || p[1] != 0x0a {
		return 0, nil, fmt.Errorf("bad signature %x%x", p[0], p[1])
	}
	size := int(p[14])<<8 | int(p[15])
	if 16+size > len(p) {
		return 0, nil, fmt.Errorf("header length %d beyond datagram", size)
	}
	if 16+size == len(p) {
		return 0, nil, errHeaderOnly
	}
	src := &net.UDPAddr{IP: net.IP(p[16:20]), Port: int(p[24])<<8 | int(p[25])}
	n := copy(p, p[16+size:])
	return n, src, nil
}
