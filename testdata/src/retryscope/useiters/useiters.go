// Package useiters ranges over retry iterators defined in another package.
package useiters

import (
	"context"

	"retryscope/iters"
)

func send(ctx context.Context) error { return nil }

func use(ctx context.Context) (err error) { // want use:"retries: retry iterator loop \\(retryscope/iters.Default\\) at useiters.go:13, attempts=variable \\(local\\)$"
	for range iters.Default(ctx) { // want `retry iterator loop \(retryscope/iters.Default\): attempts=variable wait=backoff deadline=context`
		if err = send(ctx); err == nil {
			return nil
		}
	}
	return iters.Do(ctx, send) // want `retry callback \(retryscope/iters.Do\): attempts=variable wait=backoff deadline=context`
}

func data(ctx context.Context, items []string) {
	for range iters.Values(items) {
		if send(ctx) == nil {
			break
		}
	}
}
