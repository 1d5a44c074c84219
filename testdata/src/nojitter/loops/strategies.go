package loops

import (
	"context"
	"errors"
	"fmt"
	"net/http"
)

// Strategy judges whether another attempt is made; it may wait first (a backoff) or count
// (a limit). A retry library takes its waits and caps from the caller this way.
type Strategy func(attempt uint, err error) bool

// DoWith runs action until it succeeds or a strategy says stop: the strategies wait and cap,
// so the loop itself waits for nothing of its own.
func DoWith(ctx context.Context, action func(context.Context) error, strategies ...Strategy) error {
	err := errors.New("not tried")
	for attempt, again := uint(0), true; again; attempt++ {
		for i := 0; again && i < len(strategies); i++ {
			again = again && strategies[i](attempt, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		default:
			if again {
				err = action(ctx)
			}
		}
		again = again && err != nil
	}
	return err
}

// Repeat hands the attempt number to the operation itself: nothing else decides or waits,
// and the loop goes round at once.
func Repeat(ctx context.Context, n int, op func(ctx context.Context, attempt int) error, onError func(attempt int, err error) bool) error {
	var err error
	for attempt := 0; attempt < n; attempt++ { // related "strategies.go:39: retry loop" // want `retry loop goes round without waiting`
		if err = op(ctx, attempt); err == nil {
			return nil
		}
		if errors.Is(err, context.Canceled) {
			return err
		}
	}
	return fmt.Errorf("after %d attempts: %w", n, err)
}

func pushStatus(ctx context.Context, hc *http.Client, url string) error {
	return DoWith(ctx, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, url, nil)
		if err != nil {
			return err
		}
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode >= 500 {
			return fmt.Errorf("status %d", resp.StatusCode)
		}
		return nil
	})
}

func pushStatusRepeat(ctx context.Context, hc *http.Client, url string) error {
	return Repeat(ctx, 4, func(ctx context.Context, attempt int) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, url, nil)
		if err != nil {
			return err
		}
		req.Header.Set("X-Attempt", fmt.Sprint(attempt))
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode >= 500 {
			return fmt.Errorf("status %d", resp.StatusCode)
		}
		return nil
	}, nil)
}
