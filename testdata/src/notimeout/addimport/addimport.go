// Package addimport: the fix imports "time" when the file does not.
package addimport

import "net/http"

func get(u string) {
	c := &http.Client{} // related "addimport.go:8: Client.Get sends a request without a context through it" // want `this http\.Client has no Timeout, so a stalled server hangs Client\.Get, whose request has no deadline; set Timeout`
	c.Get(u)
}
