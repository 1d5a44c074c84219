// Package usesplitset turns splitsdk's network retries on, and retries around its calls too:
// the attempts multiply.
package usesplitset

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"nestedretry/splitsdk"
	"nestedretry/splitsdk/profile"
)

func NewClient(region string) (*splitsdk.Client, error) {
	prof := profile.NewClientProfile()
	prof.NetworkFailureMaxRetries = 3
	return splitsdk.NewClient(region, prof)
}

// Encrypt retries the SDK's call, which retries network failures 3 more times. Reported.
func Encrypt(ctx context.Context, c *splitsdk.Client, keyID, plaintext string) (string, error) {
	var err error
	for attempt := range 3 {
		var resp *splitsdk.EncryptResponse
		resp, err = c.Encrypt(ctx, keyID, plaintext) // related "usesplitset.go:24: outer retry loop" // want `retries up to 3 times around splitsdk.Client.Encrypt, which retries too`
		if err == nil {
			return resp.Ciphertext, nil
		}
		time.Sleep(time.Duration(attempt+1)*100*time.Millisecond + rand.N(100*time.Millisecond))
	}
	return "", fmt.Errorf("encrypt: %w", err)
}
