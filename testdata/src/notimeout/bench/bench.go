// Package bench is a benchmark harness (its name says so): its calls talk to the servers it
// measures.
package bench

import (
	"net"
	"net/http"
)

// ---- Not reported ----

func Run(url, addr string) error {
	if _, err := http.Get(url); err != nil {
		return err
	}
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return err
	}
	return c.Close()
}
