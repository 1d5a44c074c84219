// Package backoff is a module's own backoff policy, in a package of its own.
package backoff

import "time"

// Exponential doubles from 100 ms, up to 30 s.
func Exponential(attempt int) time.Duration {
	d := 100 * time.Millisecond << attempt
	if d <= 0 || d > 30*time.Second {
		d = 30 * time.Second
	}
	return d
}

// RetryAfter reads a server's Retry-After seconds: the server decides.
func RetryAfter(v string) time.Duration {
	d, err := time.ParseDuration(v + "s")
	if err != nil {
		return time.Second
	}
	return d
}
