// Command loadbench is a benchmark harness: a main package in a directory named like one.
package main

import (
	"flag"
	"net"
)

// ---- Not reported ----

func main() {
	addr := flag.String("addr", "example.com:4222", "server")
	flag.Parse()
	c, err := net.Dial("tcp", *addr)
	if err == nil {
		c.Close()
	}
}
