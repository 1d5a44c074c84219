package loops

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

type mirrorClient struct {
	hc      *http.Client
	mirrors []string
	limit   int
}

var errAllMirrorsFailed = errors.New("all mirrors failed")

// fetch tries the mirrors in turn; each round's work is a function literal called where it is
// written, which pauses a fixed second before every try after the first: the loop's own wait.
func (c *mirrorClient) fetch(ctx context.Context, path string) (*http.Response, error) {
	var resp *http.Response
	var err error
	tries := 0
	for cur := 0; ; cur = (cur + 1) % len(c.mirrors) {
		if tries > c.limit {
			return nil, fmt.Errorf("%w: %v", errAllMirrorsFailed, err)
		}
		tries++
		err = func() error { // related "inline.go:25: retry loop" // want `retry loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
			if tries > 1 {
				select {
				case <-ctx.Done():
					return ctx.Err()
				case <-time.After(time.Second):
				}
			}
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.mirrors[cur]+path, nil)
			if err != nil {
				return err
			}
			resp, err = c.hc.Do(req)
			if err != nil {
				return err
			}
			if resp.StatusCode >= 500 {
				resp.Body.Close()
				return fmt.Errorf("%s: %s", c.mirrors[cur], resp.Status)
			}
			return nil
		}()
		if err == nil {
			return resp, nil
		}
	}
}
