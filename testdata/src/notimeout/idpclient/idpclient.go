// Package idpclient is the HTTP client that a login tool's identity-provider integrations
// share: it embeds an http.Client made by its constructor with a cookie jar and the caller's
// transport, and no Timeout. Its integrations (package idplogin) make their requests without
// a context: the client's missing Timeout is the one line to change, reported here once.
package idpclient

import (
	"fmt"
	"log"
	"net/http"
	"net/http/cookiejar"
	"runtime"
	"time"
)

// Options switch the client's own retries on.
type Options struct {
	Retries    bool
	Attempts   uint
	RetryDelay time.Duration
}

// HTTPClient extends http.Client with a response check and logging.
type HTTPClient struct {
	http.Client
	CheckResponse func(*http.Request, *http.Response) error
	Options       *Options
}

// NewHTTPClient makes the client every integration uses.
func NewHTTPClient(tr http.RoundTripper, opts *Options) (*HTTPClient, error) {
	jar, err := cookiejar.New(nil)
	if err != nil {
		return nil, err
	}
	client := http.Client{Transport: tr, Jar: jar} // related "idpclient.go:44: HTTPClient.Do sends a request with its caller's context through it" // want `this http\.Client has no Timeout by default, so HTTPClient\.Do can hang; set a default Timeout`
	return &HTTPClient{client, nil, opts}, nil
}

// Do sends req, checks the answer and logs it.
func (hc *HTTPClient) Do(req *http.Request) (*http.Response, error) {
	req.Header.Set("User-Agent", fmt.Sprintf("login-tool/1.0 (%s %s)", runtime.GOOS, runtime.GOARCH))
	log.Printf("%s %s", req.Method, req.URL)
	resp, err := hc.Client.Do(req)
	if err != nil {
		return resp, err
	}
	if hc.CheckResponse != nil {
		if err := hc.CheckResponse(req, resp); err != nil {
			return resp, err
		}
	}
	log.Printf("%s %s: %s", req.Method, req.URL, resp.Status)
	return resp, nil
}

// DisableRedirects keeps the answers of redirects (a login form posts to one): it sets
// CheckRedirect, which bounds nothing.
func (hc *HTTPClient) DisableRedirects() {
	hc.CheckRedirect = func(req *http.Request, via []*http.Request) error { return http.ErrUseLastResponse }
}

// EnableRedirects follows redirects again.
func (hc *HTTPClient) EnableRedirects() { hc.CheckRedirect = nil }
