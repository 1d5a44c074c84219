// Package usesdk retries another package's function that sends an unkeyed POST.
package usesdk

import (
	"context"

	"github.com/cenkalti/backoff/v4"
	"unkeyedretry/sdk"
)

func Move(ctx context.Context, c *sdk.Client) error {
	return backoff.Retry(func() error {
		return c.CreateTransfer(ctx, "acct_1", "acct_2", 500) // related "usesdk.go:12: retry callback" // want `POST /v1/transfers is retried with no idempotency key; Client\.CreateTransfer must send one made before the retries`
	}, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3))
}
