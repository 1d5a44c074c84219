package loops

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"time"
)

// A wait kept in a package variable, so that the tests can make it instant: the retry waits
// through it.
var waitFunc = waitCtx

func waitCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func (c *Client) Ping(ctx context.Context) error {
	for attempt := 0; attempt < 5; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.baseURL+"/ping", nil)
		if err != nil {
			return err
		}
		resp, err := c.http.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode < 500 {
				return nil
			}
		}
		if werr := waitFunc(ctx, rand.N(time.Second<<attempt)); werr != nil {
			return werr
		}
	}
	return errors.New("ping: giving up")
}
