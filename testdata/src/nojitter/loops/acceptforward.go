package loops

import (
	"errors"
	"io"
	"log"
	"net"
	"time"
)

// A port forwarder: each connection the listener accepts is joined to a fresh connection to the
// backend. When the backend dial fails, the loop drops that connection and waits for the next
// one to arrive: it does not spin against the backend.
func forwardConns(ln net.Listener, backend string) {
	for {
		in, err := ln.Accept()
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed) {
				return
			}
			log.Printf("forward: accept: %v", err)
			continue
		}
		d := net.Dialer{Timeout: 5 * time.Second}
		out, err := d.Dial("tcp", backend)
		if err != nil {
			log.Printf("forward: dial %s: %v", backend, err)
			in.Close()
			continue
		}
		go func() {
			defer in.Close()
			defer out.Close()
			go io.Copy(out, in)
			io.Copy(in, out)
		}()
	}
}
