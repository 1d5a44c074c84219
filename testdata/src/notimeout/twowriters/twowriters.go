// Package twowriters: one writer type, filled in two places with two clients without a
// timeout. A probe's writer cancels its upload with a request that has no context; the
// uploads of the other writer have deadlines. Which writer reaches the cancel the model cannot
// tell from the field, so only one client is reported there (the first the field is filled
// with), not both: the other's requests are bounded.
package twowriters

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"
)

type writer struct {
	base   string
	client *http.Client
}

// newProbe makes the writer a push check uses.
func newProbe(base string) *writer {
	return &writer{base: base, client: &http.Client{}} // related "twowriters.go:55: Client.Do sends a request without a context through it" "twowriters.go:51: http.NewRequest gives the request no context" // want `this http\.Client has no Timeout, so a stalled server hangs Client\.Do, whose request has no deadline; set Timeout`
}

// newUploader makes the writer uploads use; every upload has a deadline.
func newUploader(base string, tr http.RoundTripper) *writer {
	return &writer{base: base, client: &http.Client{Transport: tr}}
}

func (w *writer) upload(ctx context.Context, name string, body io.Reader) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.base+"/uploads/"+name, body)
	if err != nil {
		return "", err
	}
	resp, err := w.client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		return "", fmt.Errorf("upload %s: %s", name, resp.Status)
	}
	return resp.Header.Get("Location"), nil
}

// cancel drops an upload the probe started; best effort.
func (w *writer) cancel(loc string) {
	req, err := http.NewRequest(http.MethodDelete, loc, nil)
	if err != nil {
		return
	}
	if resp, err := w.client.Do(req); err == nil {
		resp.Body.Close()
	}
}

// CheckPush starts an upload to see whether pushing is allowed, and drops it.
func CheckPush(ctx context.Context, base string) error {
	p := newProbe(base)
	loc, err := p.upload(ctx, "probe", nil)
	if err != nil {
		return err
	}
	go p.cancel(loc)
	return nil
}

// Push uploads a blob.
func Push(ctx context.Context, base string, tr http.RoundTripper, name string, body io.Reader) (string, error) {
	return newUploader(base, tr).upload(ctx, name, body)
}
