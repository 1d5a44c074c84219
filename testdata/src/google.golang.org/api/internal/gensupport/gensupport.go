// Package gensupport is a stub of google.golang.org/api/internal/gensupport: what generated
// clients send with, in the real package's shape. SendRequest sends once; a resumable media
// upload retries its chunks for at most 32 s each.
package gensupport

import (
	"context"
	"io"
	"math/rand"
	"net/http"
	"time"
)

// MediaInfo is the media of a call: nil when the call carries none.
type MediaInfo struct {
	media     io.Reader
	chunkSize int
	size      int64
}

func NewInfoFromMedia(r io.Reader, chunkSize int) *MediaInfo {
	return &MediaInfo{media: r, chunkSize: chunkSize}
}

// ResumableUpload returns the upload of media larger than a chunk, nil for none or a small one.
func (mi *MediaInfo) ResumableUpload(locURI string) *ResumableUpload {
	if mi == nil || mi.size <= int64(mi.chunkSize) {
		return nil
	}
	return &ResumableUpload{URI: locURI, Media: mi.media}
}

// SendRequest sends req once, with ctx.
func SendRequest(ctx context.Context, client *http.Client, req *http.Request) (*http.Response, error) {
	return client.Do(req.WithContext(ctx))
}

// ResumableUpload uploads media in chunks to URI.
type ResumableUpload struct {
	Client *http.Client
	URI    string
	Media  io.Reader
}

var retryDeadline = 32 * time.Second

// shouldRetry says whether a chunk's attempt failed in a way worth another.
func shouldRetry(status int, err error) bool {
	if status >= 500 || status == 429 {
		return true
	}
	if err == io.ErrUnexpectedEOF {
		return true
	}
	if t, ok := err.(interface{ Temporary() bool }); ok {
		return t.Temporary()
	}
	return false
}

func (rx *ResumableUpload) transferChunk(ctx context.Context) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, "PUT", rx.URI, rx.Media)
	if err != nil {
		return nil, err
	}
	return rx.Client.Do(req)
}

// Upload sends the chunks, retrying a chunk on a transport error, a 429 or a 5xx with
// backoff until retryDeadline has passed.
func (rx *ResumableUpload) Upload(ctx context.Context) (resp *http.Response, err error) {
	for {
		var pause time.Duration
		quitAfter := time.After(retryDeadline)
		for {
			select {
			case <-ctx.Done():
				if err == nil {
					err = ctx.Err()
				}
				return resp, err
			case <-time.After(pause):
			case <-quitAfter:
				return resp, err
			}
			resp, err = rx.transferChunk(ctx)
			var status int
			if resp != nil {
				status = resp.StatusCode
			}
			if !shouldRetry(status, err) {
				break
			}
			pause = time.Second + time.Duration(rand.Int63n(int64(time.Second)))
			if resp != nil && resp.Body != nil {
				resp.Body.Close()
			}
		}
		if resp != nil && resp.StatusCode == 308 {
			resp.Body.Close()
			continue
		}
		return resp, err
	}
}
