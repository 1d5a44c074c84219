// Package useclientlib sends requests through clients that another package builds.
package useclientlib

import (
	"net/http"
	"time"

	"notimeout/clientlib"
)

// ---- Reported ----

func fetch(u string) {
	c := clientlib.New()
	c.Get(u) // related "useclientlib.go:14: clientlib.New returns an http.Client without a Timeout" // want `this http\.Client has no Timeout and the request has no context, so a stalled server hangs this call; set Timeout`
}

func upload(u string) error {
	req, err := http.NewRequest(http.MethodPut, u, nil)
	if err != nil {
		return err
	}
	c, err := clientlib.NewRetrying(3)
	if err != nil {
		return err
	}
	_, err = c.Do(req) // related "useclientlib.go:23: clientlib.NewRetrying returns an http.Client without a Timeout" "useclientlib.go:19: http.NewRequest gives the request no context" // want `this http\.Client has no Timeout and the request has no context, so a stalled server hangs this call; set Timeout`
	return err
}

// ---- Not reported ----

func fetchTimed(u string) {
	clientlib.NewTimed().Get(u)
}

func fetchSet(u string) {
	c := clientlib.New()
	c.Timeout = 5 * time.Second
	c.Get(u)
}

func fetchShared(u string) {
	clientlib.Shared().Get(u)
	clientlib.Or(&http.Client{Timeout: time.Second}).Get(u)
}
