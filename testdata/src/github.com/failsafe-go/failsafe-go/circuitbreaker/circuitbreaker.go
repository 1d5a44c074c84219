// Package circuitbreaker is a stub of github.com/failsafe-go/failsafe-go/circuitbreaker.
package circuitbreaker

import "github.com/failsafe-go/failsafe-go"

type CircuitBreaker[R any] interface {
	failsafe.Policy[R]
}

func WithDefaults[R any]() CircuitBreaker[R] { return nil }
