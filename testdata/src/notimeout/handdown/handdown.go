// Package handdown: clients made in one function and handed down to the functions that send
// requests through them.
package handdown

import (
	"context"
	"net/http"
	"time"
)

func fetch(c *http.Client, url string) error {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func fetchAll(c *http.Client, urls []string) error {
	for _, u := range urls {
		if err := fetch(c, u); err != nil {
			return err
		}
	}
	return nil
}

// ---- Reported ----

func poll(urls []string) {
	client := &http.Client{} // related "handdown.go:37: fetch sends a request without a context through it" "handdown.go:12: http.NewRequest gives the request no context" // want `this http\.Client has no Timeout, so a stalled server hangs fetch, whose request has no deadline; set Timeout`
	for _, u := range urls {
		fetch(client, u)
	}
}

func sync(urls []string) error {
	c := &http.Client{Transport: http.DefaultTransport} // related "handdown.go:43: fetchAll sends a request without a context through it" "handdown.go:12: http.NewRequest gives the request no context" // want `this http\.Client has no Timeout, so a stalled server hangs fetchAll, whose request has no deadline; set Timeout`
	return fetchAll(c, urls)
}

type poller struct {
	hc *http.Client
}

func newPoller() *poller {
	return &poller{hc: &http.Client{}} // related "handdown.go:55: fetch sends a request without a context through it" "handdown.go:12: http.NewRequest gives the request no context" // want `this http\.Client has no Timeout, so a stalled server hangs fetch, whose request has no deadline; set Timeout`
}

func (p *poller) poll(url string) error {
	return fetch(p.hc, url)
}

func pollDefault(url string) error {
	return fetch(http.DefaultClient, url) // related "handdown.go:11: fetch sends requests through the http.Client it is given" "handdown.go:12: http.NewRequest gives the request no context" // want `fetch sends a request without a context through http\.DefaultClient \(no Timeout\), so a stalled server hangs this call`
}

// ---- Not reported ----

func pollTimed(urls []string) {
	client := &http.Client{Timeout: 10 * time.Second}
	for _, u := range urls {
		fetch(client, u)
	}
}

// The helper sets the timeout itself.
func fetchConfigured(c *http.Client, url string) error {
	c.Timeout = 5 * time.Second
	_, err := c.Get(url)
	return err
}

func pollConfigured(url string) error {
	return fetchConfigured(&http.Client{}, url)
}

// The helper bounds its request.
func fetchWithin(c *http.Client, url string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	_, err = c.Do(req)
	return err
}

func pollWithin(url string) error {
	return fetchWithin(&http.Client{}, url)
}

// The caller's client.
func pollWith(c *http.Client, url string) error {
	return fetch(c, url)
}
