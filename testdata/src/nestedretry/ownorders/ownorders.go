// Package ownorders implements svcsdk.OrdersService itself (over a queue it owns, one attempt
// each) and retries calls of it: the SDK's retrying implementation is not the one it holds.
package ownorders

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"nestedretry/svcsdk"
)

type queued struct {
	ch chan svcsdk.Order
}

func (q *queued) Create(ctx context.Context, o svcsdk.Order, key string) (*svcsdk.Order, error) {
	select {
	case q.ch <- o:
		return &o, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	default:
		return nil, errors.New("ownorders: queue full")
	}
}

func NewQueued(n int) svcsdk.OrdersService { return &queued{ch: make(chan svcsdk.Order, n)} }

// Enqueue retries the queue's Create: one layer.
func Enqueue(ctx context.Context, orders svcsdk.OrdersService, o svcsdk.Order, key string) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if _, err = orders.Create(ctx, o, key); err == nil {
			return nil
		}
		time.Sleep(time.Duration(rand.Int64N(int64(50 * time.Millisecond << attempt))))
	}
	return err
}
