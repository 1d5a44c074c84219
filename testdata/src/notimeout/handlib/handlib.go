// Package handlib sends requests through the clients its callers give it.
package handlib

import (
	"net/http"
	"time"
)

func Fetch(c *http.Client, url string) (*http.Response, error) {
	return c.Get(url)
}

func FetchTimed(c *http.Client, url string) (*http.Response, error) {
	c.Timeout = time.Minute
	return c.Get(url)
}
