package retry

import (
	"math"
	"net/http"
	"strconv"
	"time"
)

// retryAfter returns the wait that err asks for: the Retry-After header of the outermost
// [HTTPError], else the RetryAfter() method of the outermost error that has one.
// Bad, zero or past values give 0.
func retryAfter(err error, now time.Time) time.Duration {
	switch e := err.(type) {
	case nil:
		return 0
	case *HTTPError:
		if d, ok := parseRetryAfter(e.Header, now); ok {
			return d
		}
	case interface{ RetryAfter() time.Duration }:
		if d := e.RetryAfter(); d > 0 {
			return d
		}
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return retryAfter(u.Unwrap(), now)
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			if d := retryAfter(e, now); d > 0 {
				return d
			}
		}
	}
	return 0
}

// parseRetryAfter reads a Retry-After header: delta-seconds or an HTTP-date.
func parseRetryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	v := h.Get("Retry-After")
	if v == "" {
		return 0, false
	}
	if digits(v) {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil { // too many digits for an int64: as long as can be
			n = math.MaxInt64
		}
		if n <= 0 {
			return 0, false
		}
		if n > int64(math.MaxInt64/time.Second) {
			return math.MaxInt64, true
		}
		return time.Duration(n) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	if d := t.Sub(now); d > 0 {
		return d, true
	}
	return 0, false
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
