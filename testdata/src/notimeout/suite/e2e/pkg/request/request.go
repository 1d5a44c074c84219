// Package request sends requests to the servers an end-to-end suite starts on loopback: a
// package of the suite's tree, whose waits are the suite's business.
package request

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

type Request struct {
	addr    string
	proxy   string
	timeout time.Duration
}

func New() *Request { return &Request{addr: "127.0.0.1"} }

func (r *Request) Addr(a string) *Request { r.addr = a; return r }

// Raw sends bytes and reads the answer.
func (r *Request) Raw(port int, payload []byte) ([]byte, error) {
	conn, err := net.Dial("tcp", fmt.Sprintf("%s:%d", r.addr, port))
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if _, err := conn.Write(payload); err != nil {
		return nil, err
	}
	return io.ReadAll(conn)
}

// HTTP gets a page from a test server.
func (r *Request) HTTP(port int, path string) (int, error) {
	hc := &http.Client{}
	resp, err := hc.Get(fmt.Sprintf("http://%s:%d%s", r.addr, port, path))
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	return resp.StatusCode, nil
}
