// Package waitstrategy stands for a retry library whose strategies are functions of the
// attempt number: Backoff returns one that sleeps a growing delay before every attempt but
// the first.
package waitstrategy

import "time"

// Strategy is called before each attempt; false stops the retries.
type Strategy func(attempt uint) bool

// Algorithm computes the delay before an attempt.
type Algorithm func(attempt uint) time.Duration

// Linear grows the delay by factor each attempt.
func Linear(factor time.Duration) Algorithm {
	return func(attempt uint) time.Duration { return factor * time.Duration(attempt) }
}

// Backoff waits algorithm(attempt) before each attempt but the first.
func Backoff(algorithm Algorithm) Strategy {
	return withTransform(algorithm, func(d time.Duration) time.Duration { return d })
}

func withTransform(algorithm Algorithm, transform func(time.Duration) time.Duration) Strategy {
	return func(attempt uint) bool {
		if attempt > 0 {
			time.Sleep(transform(algorithm(attempt)))
		}
		return true
	}
}

// Limit stops after n attempts; it does not wait.
func Limit(n uint) Strategy {
	return func(attempt uint) bool { return attempt < n }
}
