package retry

import (
	"context"
	"errors"
	"fmt"
	"syscall"
	"testing"
	"time"
)

func BenchmarkDoSuccess(b *testing.B) {
	ctx := context.Background()
	fn := func(context.Context, Attempt) error { return nil }
	b.ReportAllocs()
	for b.Loop() {
		if err := Do(ctx, Policy{}, fn); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDoSuccessBudgetBreaker(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	p := Policy{Budget: NewBudget(BudgetConfig{}), Breaker: NewBreaker(BreakerConfig{})}
	fn := func(context.Context, Attempt) error { return nil }
	b.ReportAllocs()
	for b.Loop() {
		if err := Do(ctx, p, fn); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDoSuccessTimeout: the shape the README recommends, an overall Timeout, with and
// without the dependency's budget and breaker. The deadline reaches fn through one context
// (context.WithDeadline's 4 allocations); nothing else allocates.
func BenchmarkDoSuccessTimeout(b *testing.B) {
	ctx := context.Background()
	fn := func(context.Context, Attempt) error { return nil }
	for name, p := range map[string]Policy{
		"timeout": {Timeout: 3 * time.Second},
		"timeout-budget-breaker": {Timeout: 3 * time.Second, Budget: NewBudget(BudgetConfig{}),
			Breaker: NewBreaker(BreakerConfig{})},
	} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := Do(ctx, p, fn); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDoThirdAttempt(b *testing.B) {
	ctx := context.Background()
	p := Policy{BaseDelay: time.Nanosecond} // the smallest base: the waits round to zero
	flaky := Transient(errors.New("flaky"))
	b.ReportAllocs()
	for b.Loop() {
		err := Do(ctx, p, func(_ context.Context, a Attempt) error {
			if a.Number < 3 {
				return flaky
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkIsRetryable(b *testing.B) {
	errs := map[string]error{
		"marked":  Transient(errors.New("x")),
		"errno":   fmt.Errorf("read: %w", syscall.ECONNRESET),
		"http":    &HTTPError{Method: "POST", Keyed: true, StatusCode: 503},
		"unknown": errors.New("x"),
	}
	for name, err := range errs {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				IsRetryable(err)
			}
		})
	}
}

func BenchmarkFullJitter(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		FullJitter(time.Second)
	}
}
