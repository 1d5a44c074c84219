// Package ctxhttp is a stub of golang.org/x/net/context/ctxhttp for tests.
package ctxhttp

import (
	"context"
	"net/http"
)

// Do sends req with client under ctx, closing the body when ctx ends first.
func Do(ctx context.Context, client *http.Client, req *http.Request) (*http.Response, error) {
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req.WithContext(ctx))
	if err != nil {
		select {
		case <-ctx.Done():
			err = ctx.Err()
		default:
		}
	}
	return resp, err
}
