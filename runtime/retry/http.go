package retry

import (
	"fmt"
	"net/http"
	"time"

	"github.com/idemlint/idemlint/runtime/internal/keyheader"
)

// IdempotencyKeyHeader is the request header that makes a POST or PATCH safe to retry.
// X-Idempotency-Key counts too (see HasIdempotencyKey); runtime/idempotency's middleware reads
// both, from the same definition.
const IdempotencyKeyHeader = keyheader.Name

// HTTPError is a failed HTTP exchange, as the classifier needs to see it: either a
// response with an error status, or a transport error before any response. It also
// carries the request facts that decide whether a retry is safe.
type HTTPError struct {
	Method     string      // request method
	Keyed      bool        // the request carried an Idempotency-Key
	StatusCode int         // response status; 0 if no response arrived
	Header     http.Header // response header (Retry-After); nil if no response
	Err        error       // transport error, if no response arrived
}

func (e *HTTPError) Error() string {
	if e.StatusCode == 0 {
		return fmt.Sprintf("http %s: %v", e.Method, e.Err)
	}
	return fmt.Sprintf("http %s: %d %s", e.Method, e.StatusCode, http.StatusText(e.StatusCode))
}

func (e *HTTPError) Unwrap() error { return e.Err }

// RetryAfter returns the response's Retry-After wait, or 0 if it is absent, bad or past.
func (e *HTTPError) RetryAfter() time.Duration {
	d, _ := parseRetryAfter(e.Header, time.Now())
	return d
}

// CheckHTTP turns the result of sending req into an error for [Do]: nil for a response
// with a status below 400, an *HTTPError otherwise. It leaves the body alone: the caller
// still closes it.
//
//	resp, err := client.Do(req)
//	if err := retry.CheckHTTP(req, resp, err); err != nil { ... }
func CheckHTTP(req *http.Request, resp *http.Response, err error) error {
	if err == nil && resp != nil && resp.StatusCode < 400 {
		return nil
	}
	e := &HTTPError{Err: err}
	if req != nil {
		e.Method = req.Method
		e.Keyed = HasIdempotencyKey(req.Header)
	}
	if err == nil && resp != nil {
		e.StatusCode, e.Header = resp.StatusCode, resp.Header
	}
	return e
}

// HasIdempotencyKey reports whether a request header carries a non-empty idempotency key,
// under either of the names that net/http itself honours, and runtime/idempotency's middleware
// reads: Idempotency-Key and X-Idempotency-Key.
func HasIdempotencyKey(h http.Header) bool {
	return h.Get(keyheader.Name) != "" || h.Get(keyheader.Alt) != ""
}
