// Package fields keeps self-retrying clients in struct fields and package variables, built
// in one function and used in another.
package fields

import (
	"net/http"
	"time"

	"github.com/go-resty/resty/v2"
	"github.com/hashicorp/go-retryablehttp"
	"github.com/idemlint/idemlint/runtime/retry"
	"github.com/idemlint/idemlint/runtime/retry/retryhttp"
)

type service struct {
	hc    *http.Client
	rc    *retryablehttp.Client
	rest  *resty.Client
	plain *http.Client
	idem  *http.Client
}

func newService() *service {
	rc := retryablehttp.NewClient()
	rc.RetryMax = 2
	return &service{
		hc:    retryablehttp.NewClient().StandardClient(),
		rc:    rc,
		rest:  resty.New().SetRetryCount(3),
		plain: &http.Client{Timeout: time.Second},
		idem:  &http.Client{Transport: &retryhttp.Transport{Policy: retry.Policy{MaxAttempts: 6}}},
	}
}

var shared = retryablehttp.NewClient().StandardClient()

func (s *service) get(req *http.Request, rreq *retryablehttp.Request) { // want get:`retries: self-retrying client call`
	_, _ = s.hc.Do(req)                             // want `self-retrying client call \(net/http.Client.Do\): attempts=5 wait=backoff`
	_, _ = s.rc.Do(rreq)                            // want `self-retrying client call \(github.com/hashicorp/go-retryablehttp.Client.Do\): attempts=3 wait=backoff`
	_, _ = s.rest.R().Get("https://example.com")    // want `self-retrying client call \(github.com/go-resty/resty/v2.Request.Get\): attempts=4 wait=jittered`
	_, _ = s.idem.Do(req)                           // want `self-retrying client call \(net/http.Client.Do\): attempts=6 wait=jittered deadline=context`
	_, _ = shared.Get("https://example.com")        // want `self-retrying client call \(net/http.Client.Get\): attempts=5 wait=backoff`
	_, _ = s.plain.Do(req)                          // a plain client: no scope
	_, _ = http.DefaultClient.Get("https://x.test") // nor the default one
}

// A request copies its client from the service's field.
type request struct {
	rc  *retryablehttp.Client
	req *retryablehttp.Request
}

func (s *service) newRequest(r *retryablehttp.Request) request {
	return request{rc: s.rc, req: r}
}

func (r request) do() { // want do:`retries: self-retrying client call`
	_, _ = r.rc.Do(r.req) // want `self-retrying client call \(github.com/hashicorp/go-retryablehttp.Client.Do\): attempts=3 wait=backoff`
}

// A backoff method of the package's own that uses a jittered backoff.
type tuned struct{ rc *retryablehttp.Client }

func (t *tuned) backoff(min, max time.Duration, n int, resp *http.Response) time.Duration {
	if resp != nil && resp.StatusCode == http.StatusTooManyRequests {
		return max
	}
	return retryablehttp.LinearJitterBackoff(min, max, n, resp)
}

func newTuned() *tuned {
	t := &tuned{}
	t.rc = &retryablehttp.Client{RetryMax: 9, Backoff: t.backoff}
	return t
}

func (t *tuned) do(r *retryablehttp.Request) { // want do:`retries: self-retrying client call`
	_, _ = t.rc.Do(r) // want `self-retrying client call \(github.com/hashicorp/go-retryablehttp.Client.Do\): attempts=10 wait=jittered`
}
