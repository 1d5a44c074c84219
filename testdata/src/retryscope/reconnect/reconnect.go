// Package reconnect reads a server-sent events stream and, when it ends before its terminator,
// requests it again, waiting first as long as the server's "retry:" field asked.
package reconnect

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

type eventReader struct {
	sc      *bufio.Scanner
	retryMs int
	done    bool
}

func (r *eventReader) next() ([]byte, error) {
	for r.sc.Scan() {
		line := r.sc.Text()
		switch {
		case strings.HasPrefix(line, "retry:"):
			r.retryMs, _ = strconv.Atoi(strings.TrimSpace(line[6:]))
		case line == "data: [DONE]":
			r.done = true
			return nil, io.EOF
		case strings.HasPrefix(line, "data:"):
			return []byte(strings.TrimSpace(line[5:])), nil
		}
	}
	if err := r.sc.Err(); err != nil {
		return nil, err
	}
	return nil, io.EOF
}

type Stream[T any] struct {
	ctx      context.Context
	hc       *http.Client
	url      string
	body     io.ReadCloser
	r        *eventReader
	attempts int
	max      int
}

func (s *Stream[T]) reconnect() error {
	if ms := s.r.retryMs; ms > 0 {
		t := time.NewTimer(time.Duration(ms) * time.Millisecond)
		select {
		case <-t.C:
		case <-s.ctx.Done():
			t.Stop()
			return s.ctx.Err()
		}
	}
	req, err := http.NewRequestWithContext(s.ctx, http.MethodGet, s.url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := s.hc.Do(req)
	if err != nil {
		return err
	}
	s.body.Close()
	s.body, s.r = resp.Body, &eventReader{sc: bufio.NewScanner(resp.Body)}
	s.attempts++
	return nil
}

func (s *Stream[T]) again(err error) bool {
	return s.ctx.Err() == nil && s.attempts < s.max && errors.Is(err, io.EOF) && !s.r.done
}

// Recv returns the next event, reconnecting when the stream ends early.
func (s *Stream[T]) Recv() (T, error) { // want Recv:`retries: retry callback \(retryscope/reconnect.readWithReconnect\) at reconnect.go:84, attempts=unknown \(local\)`
	var v T
	data, err := readWithReconnect(s, s.r.next) // want `retry callback \(retryscope/reconnect.readWithReconnect\): attempts=unknown wait=unknown deadline=none`
	if err != nil {
		return v, err
	}
	return v, json.Unmarshal(data, &v)
}

// readWithReconnect reads with read, reconnecting when the stream ends before its terminator:
// reconnect waits, between the attempts, as long as the server's "retry:" field asked (a
// number parsed from the stream, which the model cannot judge).
func readWithReconnect[V any, T any](s *Stream[T], read func() (V, error)) (V, error) { // want readWithReconnect:`retry helper for parameter \[1\]: attempts=unknown wait=unknown deadline=none` readWithReconnect:`retries: retry loop at reconnect.go:95, attempts=unknown`
	for { // want `retry loop: attempts=unknown wait=unknown deadline=none`
		v, err := read()
		if err == nil || !s.again(err) {
			return v, err
		}
		if rerr := s.reconnect(); rerr != nil {
			return v, rerr
		}
	}
}
