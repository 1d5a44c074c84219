// Package usesplit wraps splitsdk's key service with retries of its own. The SDK's client
// retries only when its profile says how many times, and nothing here says: one attempt per
// round, nothing multiplies.
package usesplit

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"nestedretry/splitsdk"
	"nestedretry/splitsdk/profile"
)

type Config struct {
	Retry         int
	RetryInterval time.Duration
}

type Cipher struct {
	client *splitsdk.Client
	keyID  string
	conf   Config
}

func NewCipher(region, endpoint, keyID string, conf Config) (*Cipher, error) {
	prof := profile.NewClientProfile()
	prof.HTTPProfile.Endpoint = endpoint
	client, err := splitsdk.NewClient(region, prof)
	if err != nil {
		return nil, err
	}
	return &Cipher{client: client, keyID: keyID, conf: conf}, nil
}

// Encrypt retries the SDK's call a few times with a jittered wait. Not reported.
func (c *Cipher) Encrypt(ctx context.Context, plaintext string) (string, error) {
	for attempt := 1; ; attempt++ {
		resp, err := c.client.Encrypt(ctx, c.keyID, plaintext)
		if err == nil {
			return resp.Ciphertext, nil
		}
		if attempt >= c.conf.Retry {
			return "", fmt.Errorf("encrypt after %d attempts: %w", attempt, err)
		}
		time.Sleep(c.conf.RetryInterval/2 + rand.N(c.conf.RetryInterval/2+1))
	}
}

// Settings is the SDK's profile under another name: its fields are the profile package's.
type Settings profile.ClientProfile
