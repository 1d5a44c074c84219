// Package generic uses generic helpers inferred in another package.
package generic

import "retryscope/helperlib"

func fetch() (string, error) { return "", nil }

func use() { // want use:`retries: retry callback`
	_, _ = helperlib.Value(3, fetch)                                      // want `retry callback \(retryscope/helperlib.Value\): attempts=variable wait=fixed deadline=none`
	_, _ = helperlib.Value[int](2, func() (int, error) { return 1, nil }) // want `retry callback \(retryscope/helperlib.Value\)`
	var b helperlib.Box[string]
	_, _ = b.Get(fetch) // want `retry callback \(retryscope/helperlib.Box.Get\): attempts=3`
}

// Iterating with a type parameter is still iteration.
func each[T any](items []T, fn func(T) error) error {
	for _, it := range items {
		if err := fn(it); err != nil {
			return err
		}
	}
	return nil
}
