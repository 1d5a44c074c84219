package loops

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// An SDK polls the status of an asynchronous request: the server answers 404 with
// "RequestNotProcessed" until the request is processed. Every round that goes round was
// answered: the loop waits for a state, not out an outage, and its growing wait needs no
// jitter. Any other failure leaves.

type statusError struct {
	Code   int
	Header string
}

func (e *statusError) Error() string { return fmt.Sprintf("status %d (%s)", e.Code, e.Header) }

type asyncClient struct {
	hc   *http.Client
	base string
}

func (c *asyncClient) status(ctx context.Context, id string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/v2/requests/"+id, nil)
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return &statusError{Code: resp.StatusCode, Header: resp.Header.Get("X-Error")}
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

func (c *asyncClient) AwaitProcessed(ctx context.Context, id string, out any) error {
	for i := 0; ; i++ {
		err := c.status(ctx, id, out)
		if err == nil {
			return nil
		}
		se, ok := err.(*statusError)
		if !ok || se.Code != http.StatusNotFound || se.Header != "RequestNotProcessed" || i >= 20 {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second << min(i, 5)):
		}
	}
}
