// Package clientlib builds the HTTP clients its users send requests with; what it returns is
// known to them through facts.
package clientlib

import (
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

func New() *http.Client {
	return &http.Client{Transport: http.DefaultTransport}
}

func NewRetrying(max int) (*http.Client, error) {
	rc := retryablehttp.NewClient()
	rc.RetryMax = max
	return rc.StandardClient(), nil
}

func NewTimed() *http.Client {
	return &http.Client{Timeout: 30 * time.Second}
}

// The caller's client, or a shared one: not made for the caller, no fact.
func Or(hc *http.Client) *http.Client { return hc }

var shared = &http.Client{}

func Shared() *http.Client { return shared }

// The process-wide default client, handed out.
func Default() *http.Client { return http.DefaultClient }
