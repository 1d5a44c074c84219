// Package restytimed sends through resty clients that are bounded: by SetTimeout in the chain
// or as a statement, by the http.Client they wrap, by the request's context, or by a setting
// made elsewhere that the model does not follow. Nothing here is reported.
package restytimed

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/go-resty/resty/v2"
)

type Job struct {
	ID    string `json:"id"`
	State string `json:"state"`
}

// Chained: SetTimeout in the constructor's chain.
type Chained struct{ rc *resty.Client }

func NewChained(base string) *Chained {
	return &Chained{rc: resty.New().SetBaseURL(base).SetTimeout(15*time.Second).SetHeader("Accept", "application/json")}
}

func (c *Chained) Job(ctx context.Context, id string) (*Job, error) {
	var j Job
	resp, err := c.rc.R().SetContext(ctx).SetResult(&j).Get("/jobs/" + id)
	if err != nil {
		return nil, err
	}
	if resp.IsError() {
		return nil, fmt.Errorf("job %s: status %d", id, resp.StatusCode())
	}
	return &j, nil
}

// Statement: SetTimeout on the client as a statement of its own.
func Statement(base, id string) (*Job, error) {
	rc := resty.New()
	rc.SetBaseURL(base)
	rc.SetTimeout(10 * time.Second)
	var j Job
	if _, err := rc.R().SetResult(&j).Get("/jobs/" + id); err != nil {
		return nil, err
	}
	return &j, nil
}

// Wrapped: the http.Client it wraps has a Timeout.
func Wrapped(base, id string) error {
	rc := resty.NewWithClient(&http.Client{Timeout: 20 * time.Second}).SetBaseURL(base)
	_, err := rc.R().SetBody(Job{ID: id}).Post("/jobs")
	return err
}

// Deadline: no client timeout, but every request has a deadline.
type Deadline struct{ rc *resty.Client }

func NewDeadline(base string) *Deadline { return &Deadline{rc: resty.New().SetBaseURL(base)} }

func (d *Deadline) Cancel(ctx context.Context, id string) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req := d.rc.R()
	req.SetContext(ctx)
	resp, err := req.Delete("/jobs/" + id)
	if err != nil {
		return err
	}
	if resp.IsError() {
		return fmt.Errorf("cancel %s: status %d", id, resp.StatusCode())
	}
	return nil
}

// Elsewhere: the timeout is set by another method on the kept client.
type Elsewhere struct{ rc *resty.Client }

func NewElsewhere(base string) *Elsewhere { return &Elsewhere{rc: resty.New().SetBaseURL(base)} }

func (e *Elsewhere) WithTimeout(d time.Duration) *Elsewhere {
	e.rc.GetClient().Timeout = d
	return e
}

func (e *Elsewhere) Job(id string) (*Job, error) {
	var j Job
	_, err := e.rc.R().SetResult(&j).Get("/jobs/" + id)
	return &j, err
}

// Uploader: its client has no timeout, but it uploads the caller's reader with the caller's
// context: a Timeout would cut a large upload.
type Uploader struct{ rc *resty.Client }

func NewUploader() *Uploader { return &Uploader{rc: resty.New()} }

func (u *Uploader) Upload(ctx context.Context, uploadURL string, image io.Reader) error {
	resp, err := u.rc.R().
		SetContext(ctx).
		SetHeader("Content-Type", "application/octet-stream").
		SetBody(image).
		Put(uploadURL)
	if err != nil {
		return fmt.Errorf("upload: %w", err)
	}
	if resp.IsError() {
		return fmt.Errorf("upload: status %d", resp.StatusCode())
	}
	return nil
}

// Hooked: no client timeout, but a hook gives every request a deadline.
type Hooked struct{ rc *resty.Client }

func NewHooked(base string) *Hooked {
	rc := resty.New().SetBaseURL(base)
	rc.OnBeforeRequest(func(_ *resty.Client, r *resty.Request) error {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		_ = cancel
		r.SetContext(ctx)
		return nil
	})
	return &Hooked{rc: rc}
}

func (h *Hooked) Job(id string) (*Job, error) {
	var j Job
	_, err := h.rc.R().SetResult(&j).Get("/jobs/" + id)
	return &j, err
}

// Chained statement: the deadline is set by a statement that chains setters on the request.
type ChainedCtx struct{ rc *resty.Client }

func NewChainedCtx(base string) *ChainedCtx { return &ChainedCtx{rc: resty.New().SetBaseURL(base)} }

func (c *ChainedCtx) Job(id string) (*Job, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var j Job
	req := c.rc.R()
	req.SetHeader("Accept", "application/json").SetContext(ctx)
	_, err := req.SetResult(&j).Get("/jobs/" + id)
	return &j, err
}

// Unbounded on purpose: SetTimeout(0) written out.
type NoTimeout struct{ rc *resty.Client }

func NewNoTimeout(base string) *NoTimeout {
	return &NoTimeout{rc: resty.New().SetBaseURL(base).SetTimeout(0)}
}

func (n *NoTimeout) Watch(id string) error {
	_, err := n.rc.R().Get("/jobs/" + id + "/watch")
	return err
}

// Downloader: the answer is written to a file as it arrives, with the caller's context.
type Downloader struct{ rc *resty.Client }

func NewDownloader() *Downloader { return &Downloader{rc: resty.New()} }

func (d *Downloader) Fetch(ctx context.Context, url, path string) error {
	resp, err := d.rc.R().SetContext(ctx).SetOutput(path).Get(url)
	if err != nil {
		return err
	}
	if resp.IsError() {
		return fmt.Errorf("fetch %s: status %d", url, resp.StatusCode())
	}
	return nil
}
