// Package objput uploads objects to a storage service whose client re-sends a request on the
// service's failures, switching to the backup domain for the last attempt.
package objput

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

type RetryOpt struct {
	Count          int
	AutoSwitchHost bool
}

type Config struct {
	RetryOpt RetryOpt
}

type Client struct {
	BaseURL *url.URL
	Conf    Config
	hc      *http.Client
}

func NewClient(base *url.URL) *Client {
	return &Client{BaseURL: base, Conf: Config{RetryOpt: RetryOpt{Count: 3, AutoSwitchHost: true}}, hc: &http.Client{Timeout: time.Minute}}
}

type ErrorResponse struct {
	Status    int
	RequestID string
}

func (e *ErrorResponse) Error() string { return fmt.Sprintf("%d (request %s)", e.Status, e.RequestID) }

var errInvalidBucket = errors.New("invalid bucket name")

type sendOptions struct {
	baseURL *url.URL
	uri     string
	method  string
	body    io.Reader
	isRetry bool
}

func (c *Client) send(ctx context.Context, opt *sendOptions) (*http.Response, error) {
	u := opt.baseURL.JoinPath(opt.uri)
	req, err := http.NewRequestWithContext(ctx, opt.method, u.String(), opt.body)
	if err != nil {
		return nil, err
	}
	if opt.isRetry {
		req.Header.Set("X-Retry", "1")
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 300 {
		defer resp.Body.Close()
		return resp, &ErrorResponse{Status: resp.StatusCode, RequestID: resp.Header.Get("X-Request-Id")}
	}
	return resp, nil
}

func backupHost(u *url.URL) *url.URL {
	b := *u
	b.Host = strings.Replace(u.Host, ".storage.", ".storage-backup.", 1)
	return &b
}

// checkRetryable says whether the outcome of a send is worth another one, and the host to
// send it to.
func (c *Client) checkRetryable(u *url.URL, resp *http.Response, err error, secondLast bool) (*url.URL, bool) {
	if err == nil || err == errInvalidBucket {
		return u, false
	}
	if resp != nil && resp.StatusCode < 500 {
		return u, false
	}
	if c.Conf.RetryOpt.AutoSwitchHost && secondLast && (resp == nil || resp.Header.Get("X-Request-Id") == "") {
		return backupHost(u), true
	}
	return u, true
}

type ObjectService struct{ client *Client }

// Put uploads r, sending it again at once, from the same position, while the service fails.
func (s *ObjectService) Put(ctx context.Context, name string, r io.Reader) (*http.Response, error) {
	count := s.client.Conf.RetryOpt.Count
	if count < 1 {
		count = 1
	}
	var position int64
	if seeker, ok := r.(io.Seeker); ok {
		p, err := seeker.Seek(0, io.SeekCurrent)
		if err != nil {
			return nil, err
		}
		position = p
	}
	u := s.client.BaseURL
	var resp *http.Response
	var err error
	var again bool
	for nr := 0; nr < count; nr++ {
		opt := sendOptions{baseURL: u, uri: "/" + url.PathEscape(name), method: http.MethodPut, body: r, isRetry: nr > 0}
		resp, err = s.client.send(ctx, &opt)
		u, again = s.client.checkRetryable(u, resp, err, nr >= count-2)
		if again && nr+1 < count {
			if seeker, ok := r.(io.Seeker); ok {
				if _, e := seeker.Seek(position, io.SeekStart); e != nil {
					break
				}
				continue
			}
		}
		break
	}
	return resp, err
}

// PutFromFile uploads a file, opening it again for each of three tries around Put, which
// retries too.
func (s *ObjectService) PutFromFile(ctx context.Context, name, path string) (resp *http.Response, err error) {
	for nr := 0; nr < 3; {
		fd, e := os.Open(path)
		if e != nil {
			return nil, e
		}
		resp, err = s.Put(ctx, name, fd) // related "objput.go:134: outer retry loop", "objput.go:114: inner retry loop" // want `retries up to 3 times around ObjectService.Put, which retries too: attempts multiply; keep one layer`
		if err != nil {
			nr++
			fd.Close()
			continue
		}
		fd.Close()
		break
	}
	return resp, err
}
