package loops

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
)

// A chunked uploader that sends a chunk again by calling itself after a failure, when the
// chunk can be read again from the start. The way back is decided by a backoff policy handed
// the error (an interface of the program's: implementations sleep and count), or, in the
// second uploader, by a plain predicate on the error.

type chunkBackoff interface {
	Next(err error) bool
	Reset()
}

type chunkSource interface {
	io.ReadSeeker
	Seekable() bool
}

type chunk struct {
	index   int
	start   int64
	length  int64
	src     chunkSource
	backoff chunkBackoff
	log     *slog.Logger
}

type chunkSender func(ctx context.Context, c *chunk, body io.Reader) error

func putChunk(hc *http.Client, url string) chunkSender {
	return func(ctx context.Context, c *chunk, body io.Reader) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, fmt.Sprintf("%s/%d", url, c.index), body)
		if err != nil {
			return err
		}
		req.ContentLength = c.length
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode/100 != 2 {
			return fmt.Errorf("chunk %d: %s", c.index, resp.Status)
		}
		return nil
	}
}

// process sends the chunk, and again while the backoff policy says so: the policy may wait
// and count; not reported.
func (c *chunk) process(ctx context.Context, send chunkSender) error {
	body := io.LimitReader(c.src, c.length)
	err := send(ctx, c, body)
	if err != nil {
		if !errors.Is(err, context.Canceled) && c.src.Seekable() && c.backoff.Next(err) {
			if _, serr := c.src.Seek(c.start, io.SeekStart); serr != nil {
				return fmt.Errorf("seek back to chunk %d: %w (after %v)", c.index, serr, err)
			}
			c.log.Debug("retrying chunk", "index", c.index, "err", err)
			return c.process(ctx, send)
		}
		return err
	}
	c.backoff.Reset()
	return nil
}

func transientChunkError(err error) bool {
	return !errors.Is(err, os.ErrPermission)
}

// processAgain sends the chunk again at once whenever the failure looks transient: reported.
func (c *chunk) processAgain(ctx context.Context, send chunkSender) error { // related "chunkpolicy.go:82: retrying recursion" // want `retrying function processAgain goes round without waiting, so it hammers a failing dependency; wait with jitter`
	body := io.LimitReader(c.src, c.length)
	err := send(ctx, c, body)
	if err != nil {
		if c.src.Seekable() && transientChunkError(err) {
			if _, serr := c.src.Seek(c.start, io.SeekStart); serr != nil {
				return serr
			}
			return c.processAgain(ctx, send)
		}
		return err
	}
	return nil
}
