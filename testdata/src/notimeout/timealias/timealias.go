// Package timealias: the fix names the time package as the file imports it.
package timealias

import (
	"net/http"
	tm "time"
)

var _ = tm.Now

func get(u string) {
	c := &http.Client{} // related "timealias.go:13: Client.Get sends a request without a context through it" // want `this http\.Client has no Timeout, so a stalled server hangs Client\.Get, whose request has no deadline; set Timeout`
	c.Get(u)
}
