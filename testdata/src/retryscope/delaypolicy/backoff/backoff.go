// Package backoff is a module's own backoff policy, in a package of its own.
package backoff

import (
	"math/rand/v2"
	"time"
)

// Policy is the module's retry policy.
type Policy struct {
	Base, Max time.Duration
}

// Default is what the module's clients use.
var Default = Policy{Base: 200 * time.Millisecond, Max: 10 * time.Second}

// Delay doubles from Base up to Max: no randomness.
func (p Policy) Delay(attempt int) time.Duration { // want Delay:`returns a delay: backoff`
	d := p.Base << attempt
	if d > p.Max || d <= 0 {
		d = p.Max
	}
	return d
}

// Jittered draws the delay from [0, Delay(attempt)).
func (p Policy) Jittered(attempt int) time.Duration { // want Jittered:`returns a delay: jittered`
	return time.Duration(rand.Int64N(int64(p.Delay(attempt)) + 1))
}

// Interval is a configured pause.
func (p Policy) Interval() time.Duration { // want Interval:`returns a delay: fixed`
	return p.Base
}

// FromHeader parses a server's Retry-After, which the model cannot judge.
func FromHeader(v string) time.Duration {
	d, err := time.ParseDuration(v + "s")
	if err != nil {
		return 0
	}
	return d
}
