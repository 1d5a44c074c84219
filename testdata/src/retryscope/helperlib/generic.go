package helperlib

import "time"

// Value is a generic helper: it retries fn and returns its value.
func Value[T any](n int, fn func() (T, error)) (T, error) { // want Value:`retry helper for parameter \[1\]: attempts=variable wait=fixed deadline=none` Value:`retries: retry loop` Value:`waits: fixed`
	var zero T
	var err error
	for i := 0; i < n; i++ { // want `retry loop: attempts=variable wait=fixed deadline=none`
		var v T
		if v, err = fn(); err == nil {
			return v, nil
		}
		time.Sleep(time.Millisecond)
	}
	return zero, err
}

// Box is a generic type with a retrying method.
type Box[T any] struct{ tries int }

func (b *Box[T]) Get(fn func() (T, error)) (T, error) { // want Get:`retry helper for parameter \[0\]` Get:`retries: retry loop`
	var v T
	var err error
	for range 3 { // want `retry loop: attempts=3 wait=none deadline=none`
		if v, err = fn(); err == nil {
			break
		}
	}
	return v, err
}
