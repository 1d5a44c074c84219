package loops

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
)

type blobClient struct {
	base   *url.URL
	hc     *http.Client
	tries  int
	backup bool
}

func (c *blobClient) put(ctx context.Context, u *url.URL, body io.Reader) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, u.String(), body)
	if err != nil {
		return nil, err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 500 {
		resp.Body.Close()
		return resp, &httpStatusError{code: resp.StatusCode}
	}
	return resp, nil
}

type httpStatusError struct{ code int }

func (e *httpStatusError) Error() string { return http.StatusText(e.code) }

// retryable judges a put's outcome and picks the host for the next one: the backup domain
// for the last try.
func (c *blobClient) retryable(u *url.URL, resp *http.Response, err error, last bool) (*url.URL, bool) {
	if err == nil || resp != nil && resp.StatusCode < 500 {
		return u, false
	}
	if c.backup && last {
		b := *u
		b.Host = strings.Replace(b.Host, "blob.", "blob-backup.", 1)
		return &b, true
	}
	return u, true
}

// upload sends the body again at once, rewound, while the store fails; the host the policy
// picks for the last try is the retry's step, not another item.
func (c *blobClient) upload(ctx context.Context, name string, body io.ReadSeeker) (*http.Response, error) {
	u := c.base.JoinPath(name)
	var resp *http.Response
	var err error
	var again bool
	for n := 0; n < c.tries; n++ { // related "reupload.go:60: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		resp, err = c.put(ctx, u, body)
		u, again = c.retryable(u, resp, err, n >= c.tries-2)
		if again && n+1 < c.tries {
			if _, e := body.Seek(0, io.SeekStart); e != nil {
				break
			}
			continue
		}
		break
	}
	return resp, err
}

// uploadFile opens the file anew for each try, and closes it when the try failed: the same
// upload again, not another target.
func (c *blobClient) uploadFile(ctx context.Context, path string) (resp *http.Response, err error) {
	u := c.base.JoinPath(path)
	for tries := 0; tries < 3; { // related "reupload.go:78: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		f, e := os.Open(path)
		if e != nil {
			return nil, e
		}
		resp, err = c.put(ctx, u, f)
		if err != nil {
			tries++
			f.Close()
			continue
		}
		f.Close()
		break
	}
	return resp, err
}
