// Package flagdefault is checked with -notimeout.default=1500ms (TestDefaultFlag); the main
// test skips it.
package flagdefault

import (
	"net/http"
	tm "time"
)

var _ = tm.Now

func get(u string) {
	c := &http.Client{} // want `this http.Client has no Timeout`
	c.Get(u)
}
