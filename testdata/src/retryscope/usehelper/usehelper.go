// Package usehelper uses the helpers inferred in another package.
package usehelper

import (
	"context"

	"retryscope/helperlib"
)

func send(ctx context.Context) error { return nil }

func use(ctx context.Context) { // want use:`retries: retry callback \(retryscope/helperlib.Retry\) at usehelper.go:13, attempts=3 \(local\)$`
	_ = helperlib.Retry(ctx, func(ctx context.Context) error { return send(ctx) }) // want `retry callback \(retryscope/helperlib.Retry\): attempts=3 wait=fixed deadline=context`
	_ = helperlib.WithBackoff(func() error { return send(ctx) })                   // want `retry callback \(retryscope/helperlib.WithBackoff\): attempts=unbounded wait=jittered deadline=elapsed`
	_ = helperlib.Twice(send)                                                      // want `retry callback \(retryscope/helperlib.Twice\): attempts=3`
	var c helperlib.Client
	_ = c.Do(ctx, func() error { return send(ctx) }) // want `retry callback \(retryscope/helperlib.Client.Do\): attempts=5 wait=none`
	_ = helperlib.Once(func() error { return send(ctx) })
	_ = helperlib.Each([]string{"a"}, func(string) error { return send(ctx) })
}

// Calls a function that retries: the fact travels.
func indirect(ctx context.Context) { // want indirect:`retries: .* via use`
	use(ctx)
}

// Wait is not a retry helper (its parameter only hears of progress): no scope here.
func waitOnly(ctx context.Context) { // want waitOnly:`retries: retry callback \(retryscope/helperlib.Poll\) at helperlib.go:92, attempts=unbounded via Wait`
	_ = helperlib.Wait(ctx, func(string) {})
	_ = helperlib.Wait(ctx, nil)
}

// A helper called with a nil function retries nothing.
func nilCallback(ctx context.Context) { // want nilCallback:`retries: retry loop at helperlib.go:14, attempts=3 via Retry`
	_ = helperlib.Retry(ctx, nil)
}

// A wait helper of another package, known through its fact.
func pausing(ctx context.Context) error { // want pausing:`retries: retry loop`
	var err error
	for attempt := 0; attempt < 3; attempt++ { // want `retry loop: attempts=3 wait=fixed deadline=context`
		if err = send(ctx); err == nil {
			return nil
		}
		helperlib.Pause(ctx)
	}
	return err
}
