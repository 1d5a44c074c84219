// Package bench measures the overhead of runtime/retry.Do against the retry libraries that
// services use today, side by side, in one run:
//
//	cd bench && go test -run '^$' -bench . -benchmem
//
// It is a module of its own so that the main module never depends on those libraries.
package bench
