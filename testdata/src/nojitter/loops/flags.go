package loops

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// A transport's request loop whose decision to go round is a flag: set under the tests of the
// attempt's error and status (a broken connection, a status in the retry list) and read at the
// end of the round. The request is cloned for each attempt after the first, the same request
// again, not a step of a walk.

type nodeTransport struct {
	hc             *http.Client
	mu             sync.Mutex
	nodes          []*url.URL
	next           int
	maxRetries     int
	retryOnStatus  []int
	disableRetry   bool
	requestTimeout time.Duration
}

func (t *nodeTransport) node() *url.URL {
	t.mu.Lock()
	defer t.mu.Unlock()
	u := t.nodes[t.next%len(t.nodes)]
	t.next++
	return u
}

// Perform sends req to the next node, again after a broken connection or a listed status.
func (t *nodeTransport) Perform(req *http.Request) (*http.Response, error) {
	var (
		res *http.Response
		err error
	)
	for i := 0; i <= t.maxRetries; i++ {
		if i > 0 {
			req = req.Clone(req.Context())
			if req.GetBody != nil {
				if req.Body, err = req.GetBody(); err != nil {
					return nil, err
				}
			}
		}
		var shouldRetry bool
		u := t.node()
		req.URL.Scheme, req.URL.Host = u.Scheme, u.Host
		ctx, cancel := context.WithTimeout(req.Context(), t.requestTimeout)
		start := time.Now()
		res, err = t.hc.Do(req.WithContext(ctx))
		slog.Debug("round trip", "node", u.Host, "took", time.Since(start), "err", err)
		if err != nil {
			cancel()
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				if !t.disableRetry {
					shouldRetry = true
				}
			}
			var netErr net.Error
			if errors.As(err, &netErr) && !netErr.Timeout() && !t.disableRetry {
				shouldRetry = true
			}
		} else {
			res.Body = cancelOnClose{res.Body, cancel}
		}
		if res != nil && !t.disableRetry {
			for _, code := range t.retryOnStatus {
				if res.StatusCode == code {
					shouldRetry = true
				}
			}
		}
		if !shouldRetry {
			break
		}
		if res != nil && i < t.maxRetries {
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
		}
		if i < t.maxRetries {
			time.Sleep(250 * time.Millisecond) // related "flags.go:45: retry loop" // want `retry loop waits a fixed 250ms between attempts, so clients that failed together retry together; add jitter`
		}
	}
	return res, err
}

type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c cancelOnClose) Close() error {
	defer c.cancel()
	return c.ReadCloser.Close()
}

// A reader that sets a flag after a successful read (a push frame seen) and goes round on it:
// the flag follows the frames, not a failure, so the loop reads a stream; it retries nothing.

type frame struct {
	kind byte
	body []byte
}

// lineSource yields a connection's lines; its implementations read the network.
type lineSource interface {
	Line() ([]byte, error)
}

func readFrame(r lineSource) (frame, error) {
	line, err := r.Line()
	if err != nil {
		return frame{}, err
	}
	if len(line) == 0 {
		return frame{}, errors.New("empty frame")
	}
	return frame{kind: line[0], body: line[1:]}, nil
}

type pushConn struct {
	r      lineSource
	pushes chan<- frame
}

// nextReply returns the next reply, handing the pushes before it to the subscriber; the
// acknowledgement that follows a push is skipped.
func (c *pushConn) nextReply() (frame, error) {
	ackPending := false
	for {
		f, err := readFrame(c.r)
		if err != nil {
			return frame{}, err
		}
		if f.kind == '>' {
			c.pushes <- f
			ackPending = true
			continue
		}
		if ackPending && f.kind == '+' {
			ackPending = false
			continue
		}
		return f, nil
	}
}
