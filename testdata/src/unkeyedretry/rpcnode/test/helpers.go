// Package rpctest starts a node for the tests of other packages and waits until its RPC
// answers: a test-support package (named so, in a directory named test), whose retries are
// on purpose. Not reported.
package rpctest

import (
	"context"
	"time"

	"unkeyedretry/rpcnode"
)

// WaitForRPC asks the node for its status until it answers.
func WaitForRPC(addr string) {
	c := rpcnode.New(addr)
	var status map[string]any
	for {
		if err := c.Call(context.Background(), "status", nil, &status); err == nil {
			return
		}
		time.Sleep(time.Millisecond)
	}
}
