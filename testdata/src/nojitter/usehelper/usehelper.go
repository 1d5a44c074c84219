// Package usehelper calls the helper of another package: known through its HelperFact, and
// not reported here (the helper's loop is, where it is written).
package usehelper

import (
	"context"
	"net/http"

	"nojitter/helperlib"
)

func Fetch(ctx context.Context, hc *http.Client, url string) error {
	return helperlib.Do(ctx, 3, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}
