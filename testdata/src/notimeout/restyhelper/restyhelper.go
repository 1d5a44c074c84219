// Package restyhelper builds its requests in a helper handed the client: the package's shared
// client has no timeout, while a caller's client is the caller's to bound.
package restyhelper

import (
	"context"
	"fmt"
	"time"

	"github.com/go-resty/resty/v2"
)

var shared = resty.New()

func newRequest(c *resty.Client, token string) *resty.Request {
	return c.R().SetHeader("Authorization", "Bearer "+token).SetHeader("Accept", "application/json")
}

// Ping checks the service through the shared client, with no context.
func Ping(base, token string) error {
	resp, err := newRequest(shared, token).Get(base + "/ping") // related "restyhelper.go:13: resty.New returns a resty.Client with no timeout (SetTimeout)" // want `this resty.Client has no timeout \(SetTimeout\) and the request has no context`
	if err != nil {
		return err
	}
	if resp.IsError() {
		return fmt.Errorf("ping: status %d", resp.StatusCode())
	}
	return nil
}

// SendVia posts through the client its caller gives.
func SendVia(cl *resty.Client, base, token string, body any) error {
	resp, err := newRequest(cl, token).SetContext(context.Background()).SetBody(body).Post(base + "/v1/events")
	if err != nil {
		return err
	}
	if resp.IsError() {
		return fmt.Errorf("send: status %d", resp.StatusCode())
	}
	return nil
}

// Timed gives SendVia a client with a timeout.
func Timed(base, token string, body any) error {
	return SendVia(resty.New().SetTimeout(10*time.Second), base, token, body)
}
