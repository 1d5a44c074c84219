// Package flagdefault is checked with -notimeout.default=1500ms (TestDefaultFlag); the main
// test skips it.
package flagdefault

import (
	"net/http"
	tm "time"
)

var _ = tm.Now

func get(u string) {
	c := &http.Client{} // related "flagdefault.go:14: Client.Get sends a request without a context through it" // want `this http.Client has no Timeout`
	c.Get(u)
}
