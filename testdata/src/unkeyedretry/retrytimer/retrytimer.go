// Package retrytimer is an admin API client whose requests are retried by ranging over a
// channel that a goroutine feeds, one value per attempt, with a jittered backoff between
// them: each value is another attempt of the same request.
package retrytimer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math/rand"
	"net/http"
	"net/url"
	"syscall"
	"time"
)

const (
	maxRetry        = 10
	defaultUnit     = 200 * time.Millisecond
	defaultCap      = time.Second
	maxJitter       = 1.0
	adminAPIPrefix  = "/minio/admin/v3"
	jsonContentType = "application/json"
)

type Client struct {
	endpoint   *url.URL
	httpClient *http.Client
	random     *rand.Rand
}

type requestData struct {
	relPath     string
	queryValues url.Values
	content     []byte
}

type ErrorResponse struct {
	Code    string
	Message string
}

func (e ErrorResponse) Error() string { return e.Code + ": " + e.Message }

var successStatus = []int{http.StatusOK, http.StatusNoContent, http.StatusPartialContent}

// newRetryTimer sends an attempt number on the channel it returns, up to maxRetry times,
// waiting a jittered, growing time between sends; it stops when ctx is done.
func (c *Client) newRetryTimer(ctx context.Context, maxRetry int, unit, cap time.Duration, jitter float64) <-chan int {
	attemptCh := make(chan int)
	wait := func(attempt int) time.Duration {
		if jitter < 0 {
			jitter = 0
		}
		if jitter > 1 {
			jitter = 1
		}
		sleep := unit * time.Duration(1<<uint(attempt))
		if sleep > cap {
			sleep = cap
		}
		if jitter > 0 {
			sleep -= time.Duration(c.random.Float64() * float64(sleep) * jitter)
		}
		return sleep
	}
	go func() {
		defer close(attemptCh)
		for i := 0; i < maxRetry; i++ {
			select {
			case attemptCh <- i + 1:
			case <-ctx.Done():
				return
			}
			select {
			case <-time.After(wait(i)):
			case <-ctx.Done():
				return
			}
		}
	}()
	return attemptCh
}

func (c *Client) newRequest(ctx context.Context, method string, data requestData) (*http.Request, error) {
	u := *c.endpoint
	u.Path = adminAPIPrefix + data.relPath
	u.RawQuery = data.queryValues.Encode()
	req, err := http.NewRequestWithContext(ctx, method, u.String(), bytes.NewReader(data.content))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", jsonContentType)
	return req, nil
}

func retryableStatus(code int) bool {
	return code == http.StatusServiceUnavailable || code == http.StatusBadGateway || code == http.StatusTooManyRequests
}

// executeMethod sends the request, retrying every network error and retryable status.
func (c *Client) executeMethod(ctx context.Context, method string, data requestData) (res *http.Response, err error) {
	retryCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	for range c.newRetryTimer(retryCtx, maxRetry, defaultUnit, defaultCap, maxJitter) { // related "retrytimer.go:151: a POST request sent here" // want `the retry loop in Client\.executeMethod retries a POST request without a key: a retry can repeat its effect`
		var req *http.Request
		req, err = c.newRequest(ctx, method, data)
		if err != nil {
			return nil, err
		}
		res, err = c.httpClient.Do(req)
		if err != nil {
			if errors.Is(err, syscall.ECONNREFUSED) {
				return nil, err
			}
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			continue
		}
		for _, s := range successStatus {
			if s == res.StatusCode {
				return res, nil
			}
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			return nil, err
		}
		res.Body = io.NopCloser(bytes.NewReader(body))
		if retryableStatus(res.StatusCode) {
			continue
		}
		break
	}
	if e := retryCtx.Err(); e != nil {
		return nil, e
	}
	return res, err
}

type BatchJob struct {
	ID string `json:"id"`
}

// StartBatchJob creates a batch job on the server.
func (c *Client) StartBatchJob(ctx context.Context, job string) (*BatchJob, error) {
	resp, err := c.executeMethod(ctx, http.MethodPost, requestData{relPath: "/start-job", content: []byte(job)})
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, ErrorResponse{Code: resp.Status}
	}
	var out BatchJob
	return &out, json.NewDecoder(resp.Body).Decode(&out)
}

// ServerInfo only reads.
func (c *Client) ServerInfo(ctx context.Context) ([]byte, error) {
	resp, err := c.executeMethod(ctx, http.MethodGet, requestData{relPath: "/info"})
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

// ---- Not reported: a channel that relays work items is not a retry timer ----

// pending sends each queued job once, without waiting: a feed of items.
func (c *Client) pending(ctx context.Context, jobs []string) <-chan string {
	out := make(chan string)
	go func() {
		defer close(out)
		for _, j := range jobs {
			select {
			case out <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

// FirstAccepted posts the queued jobs in turn until the server takes one.
func (c *Client) FirstAccepted(ctx context.Context, jobs []string) (string, error) { // want FirstAccepted:`sends a POST request without an idempotency key`
	for j := range c.pending(ctx, jobs) {
		req, err := c.newRequest(ctx, http.MethodPost, requestData{relPath: "/start-job", content: []byte(j)})
		if err != nil {
			return "", err
		}
		resp, err := c.httpClient.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			return j, nil
		}
	}
	return "", errors.New("no job accepted")
}
