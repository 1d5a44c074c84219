package loops

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"
)

var errPastEnd = errors.New("range past the end of the object")

// pause doubles its own delay after each wait, up to ten seconds.
type pause time.Duration

func (p *pause) wait(ctx context.Context) error {
	if *p == 0 {
		*p = pause(time.Millisecond)
	}
	select {
	case <-time.After(time.Duration(*p)):
		if time.Duration(*p) < 10*time.Second {
			*p <<= 1
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

type chunkReader struct {
	hc     *http.Client
	url    string
	size   int64
	mu     sync.Mutex
	chunks map[int][]byte
	err    error
}

func (r *chunkReader) fetch(ctx context.Context, off, n int64) (io.ReadCloser, int64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.url, nil)
	if err != nil {
		return nil, 0, err
	}
	req.Header.Set("Range", fmt.Sprintf("bytes=%d-%d", off, off+n-1))
	resp, err := r.hc.Do(req)
	if err != nil {
		return nil, 0, err
	}
	if resp.StatusCode == http.StatusRequestedRangeNotSatisfiable {
		resp.Body.Close()
		return nil, 0, errPastEnd
	}
	return resp.Body, resp.ContentLength, nil
}

// load downloads one chunk in the background; a body cut short is downloaded again after a
// wait that doubles (pause.wait), for as long as the context lives: the wait grows without
// jitter. Reported.
func (r *chunkReader) load(ctx context.Context, id int, off, n int64) {
	go func() {
		var p pause
	again:
		body, size, err := r.fetch(ctx, off, n)
		if err == errPastEnd {
			r.mu.Lock()
			r.chunks[id] = nil
			r.mu.Unlock()
			return
		}
		if err != nil {
			r.mu.Lock()
			r.err = err
			r.mu.Unlock()
			return
		}
		buf := make([]byte, 0, size)
		got, err := io.ReadFull(body, buf[:size])
		body.Close()
		if int64(got) < size || err == io.ErrUnexpectedEOF {
			slog.Debug("chunk cut short, fetching again", "chunk", id, "got", got, "want", size)
			if err := p.wait(ctx); err != nil { // related "chunks.go:66: goto retry loop" // want `goto retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
				r.mu.Lock()
				r.err = err
				r.mu.Unlock()
				return
			}
			goto again
		}
		r.mu.Lock()
		r.chunks[id] = buf[:got]
		r.mu.Unlock()
	}()
}
