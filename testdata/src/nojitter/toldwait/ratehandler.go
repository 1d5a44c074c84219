package toldwait

import (
	"context"
	"log"
	"time"

	"chatapi"
)

// waitOut sleeps as long as a rate-limited answer says; other errors come back as they are.
func waitOut(err error) error {
	rl, ok := err.(*chatapi.RateLimitedError)
	if !ok {
		return err
	}
	log.Printf("rate limited for %s", rl.RetryAfter)
	time.Sleep(rl.RetryAfter)
	return nil
}

// Announce posts text, again after each rate limit, waiting what the error says: the
// server's wait, not a fixed one.
func Announce(ctx context.Context, api *chatapi.Client, channel, text string) error {
	for {
		_, err := api.PostMessage(ctx, channel, text)
		if err == nil {
			return nil
		}
		if err = waitOut(err); err != nil {
			return err
		}
	}
}
