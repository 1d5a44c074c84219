package loops

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// A generated SDK's retrier: run sends the request, and on 429, 408 or a 5xx closes the
// answer, waits and calls itself with the next attempt number and the error decoded from the
// answer (returned once the attempts run out). The decoded error changes nothing it sends:
// each call is the same request again.

type sendFunc func(*http.Request) (*http.Response, error)

type errorDecoder func(statusCode int, body io.Reader) error

type sdkRetrier struct {
	attempts uint
}

func (r *sdkRetrier) Run(fn sendFunc, req *http.Request, dec errorDecoder) (*http.Response, error) {
	return r.run(fn, req, dec, r.attempts, 0, nil)
}

func (r *sdkRetrier) run(fn sendFunc, req *http.Request, dec errorDecoder, maxAttempts, attempt uint, previous error) (*http.Response, error) {
	if attempt >= maxAttempts {
		return nil, previous
	}
	if err := req.Context().Err(); err != nil {
		return nil, err
	}
	resp, err := fn(req)
	if err != nil {
		return nil, err
	}
	if r.shouldRetry(resp) {
		defer resp.Body.Close()
		time.Sleep(r.delay(attempt)) // related "recretrier.go:28: retrying recursion" // want `retrying function run backs off without jitter`
		return r.run(fn, req, dec, maxAttempts, attempt+1, decodeAnswer(resp, dec))
	}
	return resp, nil
}

func (r *sdkRetrier) shouldRetry(resp *http.Response) bool {
	return resp.StatusCode == http.StatusTooManyRequests ||
		resp.StatusCode == http.StatusRequestTimeout ||
		resp.StatusCode >= http.StatusInternalServerError
}

// delay grows with the attempt: 500ms, 1s, 2.5s, 5s...
func (r *sdkRetrier) delay(attempt uint) time.Duration {
	d := 500*time.Millisecond + 500*time.Millisecond*time.Duration(attempt*attempt)
	return min(d, 5*time.Second)
}

func decodeAnswer(resp *http.Response, dec errorDecoder) error {
	if dec == nil {
		return errors.New(resp.Status)
	}
	if err := dec(resp.StatusCode, resp.Body); err != nil {
		return err
	}
	return fmt.Errorf("status %d", resp.StatusCode)
}
