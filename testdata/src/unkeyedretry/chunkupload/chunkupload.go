// Package chunkupload sends files to a cloud drive's resumable-upload endpoint: a session URI
// is opened once, then the file goes up in chunks, each chunk's POST retried on its own by a
// pacer. The loop over the chunks is not a retry: each round sends the next range of the file.
package chunkupload

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

const statusResumeIncomplete = 308

type pacer struct {
	min, max time.Duration
	retries  int
}

// call runs fn until it says not to retry, sleeping between the attempts.
func (p *pacer) call(ctx context.Context, fn func() (bool, error)) error {
	sleep := p.min
	var err error
	for try := 0; try < p.retries; try++ {
		var again bool
		again, err = fn()
		if !again {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(sleep):
		}
		sleep = min(2*sleep, p.max)
	}
	return err
}

type upload struct {
	client        *http.Client
	pacer         *pacer
	uri           string // the session URI the server gave
	media         io.Reader
	contentLength int64 // -1: unknown
	chunkSize     int
	result        []byte
}

func shouldRetry(ctx context.Context, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	var nerr interface{ Timeout() bool }
	if errors.As(err, &nerr) && nerr.Timeout() {
		return true, err
	}
	return false, err
}

// transferChunk sends one range of the file to the session URI.
func (u *upload) transferChunk(ctx context.Context, start int64, chunk io.Reader, size int64) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.uri, chunk)
	if err != nil {
		return 0, err
	}
	req.ContentLength = size
	total := "*"
	if u.contentLength >= 0 {
		total = strconv.FormatInt(u.contentLength, 10)
	}
	req.Header.Set("Content-Range", fmt.Sprintf("bytes %d-%d/%s", start, start+size-1, total))
	req.Header.Set("Content-Type", "application/octet-stream")
	resp, err := u.client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusOK || resp.StatusCode == http.StatusCreated {
		u.result, err = io.ReadAll(resp.Body)
		return resp.StatusCode, err
	}
	if resp.StatusCode == statusResumeIncomplete {
		return resp.StatusCode, nil
	}
	return resp.StatusCode, fmt.Errorf("chunk at %d: %s", start, resp.Status)
}

// readFill reads from r until buf is full or r fails.
func readFill(r io.Reader, buf []byte) (n int, err error) {
	var nn int
	for n < len(buf) && err == nil {
		nn, err = r.Read(buf[n:])
		n += nn
	}
	return n, err
}

// ---- Reported ----

// createSession opens the upload session: each POST opens a new one, and a lost answer is
// retried without a key.
func (u *upload) createSession(ctx context.Context, initURL string, meta []byte) (string, error) {
	sleep := 200 * time.Millisecond
	for try := 0; try < 3; try++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, initURL, bytes.NewReader(meta)) // related "chunkupload.go:111: retry loop" "chunkupload.go:118: sent here" // want `a POST request is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return "", err
		}
		req.Header.Set("Content-Type", "application/json; charset=UTF-8")
		req.Header.Set("X-Upload-Content-Type", "application/octet-stream")
		resp, err := u.client.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return resp.Header.Get("Location"), nil
			}
			if resp.StatusCode < 500 {
				return "", fmt.Errorf("create session: %s", resp.Status)
			}
		}
		log.Printf("create session, try %d: %v", try, err)
		time.Sleep(sleep/2 + rand.N(sleep/2))
		sleep *= 2
	}
	return "", errors.New("create session: no answer")
}

// ---- Not reported ----

// Upload sends the file chunk after chunk; the pacer retries each chunk.
func (u *upload) Upload(ctx context.Context) ([]byte, error) { // want Upload:`sends a POST request without an idempotency key`
	start := int64(0)
	var status int
	var err error
	buf := make([]byte, u.chunkSize)
	for finished := false; !finished; {
		var size int64
		var chunk io.Reader
		if u.contentLength >= 0 {
			if start >= u.contentLength {
				break
			}
			size = min(u.contentLength-start, int64(u.chunkSize))
			chunk = io.LimitReader(u.media, size)
		} else {
			var n int
			n, err = readFill(u.media, buf)
			if err == io.EOF {
				u.contentLength = start + int64(n)
				finished = true
			} else if err != nil {
				return nil, err
			}
			size = int64(n)
			chunk = bytes.NewReader(buf[:size])
		}
		err = u.pacer.call(ctx, func() (bool, error) {
			log.Printf("sending chunk %d length %d", start, size)
			status, err = u.transferChunk(ctx, start, chunk, size)
			again, err := shouldRetry(ctx, err)
			if status == statusResumeIncomplete || status == http.StatusCreated || status == http.StatusOK {
				again, err = false, nil
			}
			return again, err
		})
		if err != nil {
			return nil, err
		}
		start += size
	}
	if u.result == nil {
		return nil, fmt.Errorf("incomplete upload, last status %d", status)
	}
	return u.result, nil
}

// UploadFull is Upload reading a chunk of a file of unknown size with io.ReadFull.
func (u *upload) UploadFull(ctx context.Context) ([]byte, error) { // want UploadFull:`sends a POST request without an idempotency key`
	start := int64(0)
	var status int
	var err error
	buf := make([]byte, u.chunkSize)
	for finished := false; !finished; {
		var size int64
		var chunk io.Reader
		if u.contentLength >= 0 {
			if start >= u.contentLength {
				break
			}
			size = min(u.contentLength-start, int64(u.chunkSize))
			chunk = io.LimitReader(u.media, size)
		} else {
			var n int
			n, err = io.ReadFull(u.media, buf)
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				u.contentLength = start + int64(n)
				finished = true
			} else if err != nil {
				return nil, err
			}
			size = int64(n)
			chunk = bytes.NewReader(buf[:size])
		}
		err = u.pacer.call(ctx, func() (bool, error) {
			log.Printf("sending chunk %d length %d", start, size)
			status, err = u.transferChunk(ctx, start, chunk, size)
			again, err := shouldRetry(ctx, err)
			if status == statusResumeIncomplete || status == http.StatusCreated || status == http.StatusOK {
				again, err = false, nil
			}
			return again, err
		})
		if err != nil {
			return nil, err
		}
		start += size
	}
	if u.result == nil {
		return nil, fmt.Errorf("incomplete upload, last status %d", status)
	}
	return u.result, nil
}
