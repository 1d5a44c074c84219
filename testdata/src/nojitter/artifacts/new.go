package artifacts

import (
	"context"
	"net/http"
	"net/url"

	"github.com/hashicorp/go-retryablehttp"
)

// Two constructors, each a line to change: each is reported, both with the shared send.

// NewReleaseClient makes the client for release archives.
func NewReleaseClient(ctx context.Context, base *url.URL) *Client {
	rc := retryablehttp.NewClient() // related "client.go:49: self-retrying client call" // want `retryablehttp\.Client backs off without jitter, so clients that failed together retry together, in waves; add jitter`
	rc.HTTPClient = &http.Client{Timeout: requestTimeout}
	rc.RetryMax = 3
	rc.RequestLogHook = logRequest
	return &Client{ctx: ctx, base: base, hc: rc, product: "release"}
}

// NewMirrorClient makes the client for a mirror.
func NewMirrorClient(ctx context.Context, base *url.URL) *Client {
	rc := retryablehttp.NewClient() // related "client.go:49: self-retrying client call" // want `retryablehttp\.Client backs off without jitter, so clients that failed together retry together, in waves; add jitter`
	rc.HTTPClient = &http.Client{Timeout: requestTimeout}
	rc.RetryMax = 3
	rc.RequestLogHook = logRequest
	return &Client{ctx: ctx, base: base, hc: rc, product: "mirror"}
}
