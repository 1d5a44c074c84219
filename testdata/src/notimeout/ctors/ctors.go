// Package ctors: clients built by constructors of the package, followed to where they are
// built, with the fields the constructors (or their callers) set.
package ctors

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// A constructor that configures the transport, not the timeout.
func buildHTTPClient(insecure bool) (*http.Client, error) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if insecure {
		return nil, errors.New("refusing an insecure transport")
	}
	c := &http.Client{Transport: tr} // related "ctors.go:53: Client.Do sends a request without a context through it" "ctors.go:49: http.NewRequest gives the request no context" // want `this http\.Client has no Timeout, so a stalled server hangs Client\.Do, whose request has no deadline; set Timeout`
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return c, nil
}

// A retrying client: its HTTPClient is cleanhttp's, without a Timeout.
func newRetryableClient() *retryablehttp.Client {
	rc := retryablehttp.NewClient() // related "ctors.go:73: Client.Do sends a request without a context through it" "ctors.go:69: http.NewRequest gives the request no context" "ctors.go:82: Client.Do sends a request without a context through it" "ctors.go:78: retryablehttp.NewRequest gives the request no context" "ctors.go:149: notifyWithin sends a request with its caller's context through it" // want `this retryablehttp\.Client has no HTTPClient\.Timeout, so a stalled server hangs Client\.Do \(and 2 other calls\)`
	rc.RetryMax = 10
	rc.RetryWaitMin = 100 * time.Millisecond
	return rc
}

// ---- Reported ----

type API struct {
	hc   *http.Client
	base string
}

func NewAPI(base string) (*API, error) {
	hc, err := buildHTTPClient(false)
	if err != nil {
		return nil, err
	}
	return &API{hc: hc, base: base}, nil
}

func (a *API) Ping() error {
	req, err := http.NewRequest(http.MethodGet, a.base+"/ping", nil)
	if err != nil {
		return err
	}
	resp, err := a.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

type Uploader struct {
	hc *http.Client
}

func NewUploader() *Uploader {
	return &Uploader{hc: newRetryableClient().StandardClient()}
}

func (u *Uploader) Upload(url string) error {
	req, err := http.NewRequest(http.MethodPut, url, nil)
	if err != nil {
		return err
	}
	_, err = u.hc.Do(req)
	return err
}

func notify(url string) error {
	req, err := retryablehttp.NewRequest(http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	_, err = newRetryableClient().Do(req)
	return err
}

func literal(url string) error {
	rc := &retryablehttp.Client{RetryMax: 3} // related "ctors.go:88: Client.Get sends a request without a context through it" // want `this retryablehttp\.Client has no HTTPClient\.Timeout, so a stalled server hangs Client\.Get; set HTTPClient\.Timeout`
	_, err := rc.Get(url)
	return err
}

// ---- Not reported ----

// The timeout set inside the constructor, on the retrying client's HTTPClient.
func newTimedRetryableClient() *retryablehttp.Client {
	rc := retryablehttp.NewClient()
	rc.RetryMax = 3
	rc.HTTPClient.Timeout = 10 * time.Second
	return rc
}

func newRetryableWithClient() *retryablehttp.Client {
	rc := retryablehttp.NewClient()
	rc.HTTPClient = &http.Client{Timeout: time.Minute}
	return rc
}

func timedUpload(url string) error {
	req, err := http.NewRequest(http.MethodPut, url, nil)
	if err != nil {
		return err
	}
	if _, err := newTimedRetryableClient().StandardClient().Do(req); err != nil {
		return err
	}
	_, err = newRetryableWithClient().StandardClient().Do(req)
	return err
}

// The timeout set by the caller, on the client the constructor returns.
func timedPing(base string) error {
	hc, err := buildTimedHTTPClient()
	if err != nil {
		return err
	}
	hc.Timeout = 5 * time.Second
	_, err = hc.Get(base + "/ping")
	return err
}

func buildTimedHTTPClient() (*http.Client, error) {
	return &http.Client{Transport: http.DefaultTransport}, nil
}

func standardTimed(url string) error {
	hc := newRetryableClient().StandardClient()
	hc.Timeout = time.Minute
	_, err := hc.Get(url)
	return err
}

// Its caller's context is the only bound, through the package's retrying client: a library's
// default client, counted in the finding at newRetryableClient.
func notifyWithin(ctx context.Context, url string) error {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	_, err = newRetryableClient().Do(req)
	return err
}
