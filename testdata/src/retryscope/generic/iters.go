package generic

import (
	"iter"
	"time"
)

// Tries is a generic retry iterator: it yields the last value with each attempt.
func Tries[T any](n int, last *T) iter.Seq2[int, T] { // want Tries:`retry iterator: attempts=variable wait=backoff deadline=none`
	return func(yield func(int, T) bool) {
		for i := 0; i < n; i++ {
			if !yield(i, *last) {
				return
			}
			time.Sleep(time.Duration(i+1) * 10 * time.Millisecond)
		}
	}
}

// A range over a generic retry iterator inside a generic function.
func get[T any](fn func() (T, error)) (v T, err error) { // want get:`retry helper for parameter \[0\]` get:`retries: retry iterator loop`
	for range Tries(3, &v) { // want `retry iterator loop \(retryscope/generic.Tries\): attempts=variable wait=backoff deadline=none`
		if v, err = fn(); err == nil {
			break
		}
	}
	return v, err
}

func useGet() { // want useGet:`retries: retry callback`
	_, _ = get(fetch) // want `retry callback \(retryscope/generic.get\): attempts=variable`
}

// A body with defer, goto and a nested closure, over a retry iterator.
func odd(fn func() error) { // want odd:`retries: retry iterator loop`
	var last int
	for i, _ := range Tries(2, &last) { // want `retry iterator loop`
		if i > 5 {
			goto done
		}
		f := func() error { return fn() }
		if f() == nil {
			break
		}
	}
done:
}
