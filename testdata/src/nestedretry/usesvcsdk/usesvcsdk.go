// Package usesvcsdk seeds data through svcsdk, wrapping each call in its own retry loop.
package usesvcsdk

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"time"

	"nestedretry/svcsdk"
)

func retry(ctx context.Context, fn func() error) error {
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		if err = fn(); err == nil {
			return nil
		}
		slog.Warn("seed step failed", "attempt", attempt, "err", err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(rand.Int64N(int64(time.Second << attempt)))):
		}
	}
	return err
}

// SeedOrder retries Orders.Create, whose implementation retries too.
func SeedOrder(ctx context.Context, c *svcsdk.Client, o svcsdk.Order, key string) (*svcsdk.Order, error) {
	var out *svcsdk.Order
	err := retry(ctx, func() error {
		var err error
		out, err = c.Orders.Create(ctx, o, key) // related "usesvcsdk.go:33: outer retry callback" // want `retries up to 4 times around svcsdk\.OrdersService\.Create, which retries too: attempts multiply; keep one layer`
		return err
	})
	return out, err
}

// FetchReport retries Reports.Get, which sends once: one layer.
func FetchReport(ctx context.Context, c *svcsdk.Client, id string) ([]byte, error) {
	var out []byte
	err := retry(ctx, func() error {
		var err error
		out, err = c.Reports.Get(ctx, id)
		return err
	})
	return out, err
}

// Export retries an Exporter, which may be the one that retries or the one that does not.
func Export(ctx context.Context, e svcsdk.Exporter, data []byte) error {
	return retry(ctx, func() error { return e.Export(ctx, data) })
}

// Ping retries a Sender the caller gives: it may be the retrying layer or a plain one.
func Ping(ctx context.Context, s svcsdk.Sender, url string) error {
	return retry(ctx, func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		resp, err := s.Send(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}
