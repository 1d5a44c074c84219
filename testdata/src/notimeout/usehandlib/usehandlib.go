// Package usehandlib hands its clients to another package's function, which sends requests
// through them: known through a fact on the parameter.
package usehandlib

import (
	"net/http"

	"notimeout/handlib"
)

// ---- Reported ----

func fetch(url string) {
	c := &http.Client{} // related "usehandlib.go:15: handlib.Fetch sends a request without a context through it" // want `this http\.Client has no Timeout, so a stalled server hangs handlib\.Fetch, whose request has no deadline; set Timeout`
	handlib.Fetch(c, url)
}

// ---- Not reported ----

func fetchTimed(url string) {
	handlib.FetchTimed(&http.Client{}, url)
}
