// Package crosspkg uses retrylib: helpers, generators, sinks and minting functions from
// another package, known through facts.
package crosspkg

import (
	"context"

	"keyinloop/retrylib"
)

// ---- Reported ----

func inferredHelper(ctx context.Context, c *retrylib.Client) error {
	return retrylib.Do(ctx, 3, func(ctx context.Context) error {
		key := retrylib.NewKey() // want `retrylib.NewKey inside the function retried by keyinloop/retrylib.Do at line 14 makes a new idempotency key on every attempt \(sent as header "Idempotency-Key" \(through ChargeKeyed\)\)`
		return c.ChargeKeyed(ctx, key, 100)
	})
}

func mintingMethod(ctx context.Context, c *retrylib.Client) error {
	return retrylib.Do(ctx, 3, func(ctx context.Context) error {
		return c.Charge(ctx, 100) // want `Charge makes a new idempotency key on every call \(uuid.NewString at retrylib.go:32, sent as header "Idempotency-Key"\); called inside the function retried by keyinloop/retrylib.Do`
	})
}

// ---- Not reported ----

func keyedOutside(ctx context.Context, c *retrylib.Client) error {
	key := retrylib.NewKey()
	return retrylib.Do(ctx, 3, func(ctx context.Context) error {
		return c.ChargeKeyed(ctx, key, 100)
	})
}

// ChargeOrKey only makes a key when given none: not a minting function.
func fillsMissing(ctx context.Context, c *retrylib.Client, key string) error {
	return retrylib.Do(ctx, 3, func(ctx context.Context) error {
		return c.ChargeOrKey(ctx, key, 100)
	})
}

// Charge called once, not retried.
func once(ctx context.Context, c *retrylib.Client) error {
	return c.Charge(ctx, 100)
}
