// Package iters ranges over a retry iterator around calls that retry.
package iters

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"log"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// attempts yields up to n attempts with a jittered wait between them, until ctx is done.
func attempts(ctx context.Context, n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
			select {
			case <-time.After(time.Duration(rand.Int64N(int64(time.Second)))):
			case <-ctx.Done():
				return
			}
		}
	}
}

type event struct {
	ID   string `json:"id"`
	Kind string `json:"kind"`
}

type watcher struct {
	rc  *retryablehttp.Client
	url string
}

// ---- Reported ----

// A failure of the retrying client goes round the iterator.
func (w *watcher) Fetch(ctx context.Context, id string) ([]byte, error) {
	var last error
	for i := range attempts(ctx, 4) {
		req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, w.url+"/items/"+id, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Accept", "application/json")
		resp, err := w.rc.Do(req) // related "iters.go:49: outer retry iterator loop" // want `retries around retryablehttp\.Client\.Do, which retries too: attempts multiply on transient failures; keep one layer`
		if err != nil {
			log.Printf("fetch %s attempt %d: %v", id, i, err)
			last = err
			continue
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			last = fmt.Errorf("fetch %s: %s", id, resp.Status)
			continue
		}
		return nil, nil
	}
	return nil, last
}

// ---- Not reported ----

// A long poll: it leaves when the retrying call fails and goes round when the stream ends,
// so the client's retries are the only layer around that call.
func (w *watcher) Listen(ctx context.Context, events chan<- event) {
	defer close(events)
	for range attempts(ctx, 1000) {
		req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, w.url+"/events", nil)
		if err != nil {
			return
		}
		resp, err := w.rc.Do(req)
		if err != nil {
			log.Printf("listen: %v", err)
			return
		}
		if resp.StatusCode != http.StatusOK {
			resp.Body.Close()
			return
		}
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			var ev event
			if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
				log.Printf("listen: skipping %q: %v", sc.Text(), err)
				continue
			}
			select {
			case events <- ev:
			case <-ctx.Done():
				resp.Body.Close()
				return
			}
		}
		if err := sc.Err(); err != nil {
			log.Printf("listen: stream: %v", err)
		}
		resp.Body.Close()
	}
}
