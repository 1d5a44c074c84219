// Package statusint ships buffered log lines in bulk. Its send helper returns the answer's
// status code as a plain int (or a constant when no answer came), and the drain loop asks a
// predicate over that int whether to try again, doubling a fixed backoff.
package statusint

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"sync"
	"time"
)

const (
	sendRetries    = 4
	initialBackoff = 2 * time.Second
	noAnswer       = -1
)

type Shipper struct {
	mu       sync.Mutex
	url      string
	token    string
	compress bool
	client   *http.Client
	buf      bytes.Buffer
	pending  [][]byte
	errOut   io.Writer
}

func New(url, token string) *Shipper {
	return &Shipper{url: url, token: token, client: &http.Client{Timeout: 10 * time.Second}, errOut: os.Stderr}
}

func (s *Shipper) post(body []byte, attempt int, gzipped bool) int {
	req, err := http.NewRequest(http.MethodPost, s.url+"?token="+s.token, bytes.NewReader(body))
	if err != nil {
		fmt.Fprintf(s.errOut, "ship: build request: %v\n", err)
		return noAnswer
	}
	req.Header.Set("Content-Type", "text/plain")
	req.Header.Set("X-Shipper-Attempt", fmt.Sprint(attempt))
	if gzipped {
		req.Header.Set("Content-Encoding", "gzip")
	}
	resp, err := s.client.Do(req)
	if err != nil {
		fmt.Fprintf(s.errOut, "ship: send: %v\n", err)
		return noAnswer
	}
	defer resp.Body.Close()
	status := resp.StatusCode
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		fmt.Fprintf(s.errOut, "ship: read answer: %v\n", err)
	}
	return status
}

func (s *Shipper) send(attempt int) int {
	if !s.compress {
		return s.post(s.buf.Bytes(), attempt, false)
	}
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	zw.Write(s.buf.Bytes())
	zw.Close()
	return s.post(zipped.Bytes(), attempt, true)
}

func (s *Shipper) shouldRetry(status int) bool {
	switch status {
	case http.StatusOK, http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound:
		return false
	}
	return true
}

// Drain sends what is buffered, trying each batch four times with a doubling wait and no
// jitter: every shipper that lost the collector at once comes back at once.
func (s *Shipper) Drain() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.pending) > 0 {
		s.buf.Reset()
		s.buf.Write(bytes.Join(s.pending, []byte("\n")))
		s.pending = nil
		backoff := initialBackoff
		wait := false
		for attempt := 0; attempt < sendRetries; attempt++ {
			if wait {
				time.Sleep(backoff) // related "statusint.go:93: retry loop" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
				backoff *= 2
			}
			status := s.send(attempt)
			if !s.shouldRetry(status) {
				break
			}
			wait = true
		}
	}
}

// Flush writes the pending lines to a file, a page at a time: the int it tests is a count, not
// an answer's status (not reported).
func (s *Shipper) Flush(w io.Writer) {
	for len(s.pending) > 0 {
		n := s.writePage(w)
		if n == 0 {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		s.pending = s.pending[n:]
	}
}

func (s *Shipper) writePage(w io.Writer) int {
	n := min(len(s.pending), 100)
	for _, line := range s.pending[:n] {
		if _, err := w.Write(append(line, '\n')); err != nil {
			return 0
		}
	}
	return n
}

func statusCode(r *http.Response) int {
	if r == nil {
		return noAnswer
	}
	return r.StatusCode
}

// Ping asks the collector whether it is up, three times a second apart: the getter hands the
// predicate the answer's status, and the attempt is the send.
func (s *Shipper) Ping() bool {
	for i := 0; i < 3; i++ {
		resp, err := s.client.Get(s.url + "/health")
		if err == nil {
			resp.Body.Close()
		}
		if !s.shouldRetry(statusCode(resp)) {
			return true
		}
		time.Sleep(time.Second) // related "statusint.go:140: retry loop" // want `retry loop waits a fixed 1s between attempts, so clients that failed together retry together; add jitter`
	}
	return false
}

// nested returns the status of the innermost of n posts, calling itself: the model must not
// follow it for ever.
func (s *Shipper) nested(n int) int {
	if n > 0 {
		return s.nested(n - 1)
	}
	return s.post(s.buf.Bytes(), 0, false)
}

// Deep tries the nested post three times, with a jittered wait (not reported).
func (s *Shipper) Deep() bool {
	for i := 0; i < 3; i++ {
		if !s.shouldRetry(s.nested(i)) {
			return true
		}
		time.Sleep(time.Duration(rand.Int64N(int64(time.Second))))
	}
	return false
}
