// Package retrylib is a dependency's retry helper: a fixed delay between attempts.
package retrylib

import (
	"errors"
	"time"
)

// Retryable marks an error worth another attempt.
type Retryable string

func (r Retryable) Error() string { return string(r) }

// Retry calls action up to times times, sleeping delay after each retryable failure.
func Retry(times int, delay time.Duration, action func() (any, error)) (any, error) {
	var lastErr error
	for i := 0; i < times; i++ {
		item, err := action()
		if err == nil {
			return item, nil
		}
		var r Retryable
		if !errors.As(err, &r) {
			return nil, err
		}
		lastErr = err
		time.Sleep(delay)
	}
	return nil, lastErr
}
