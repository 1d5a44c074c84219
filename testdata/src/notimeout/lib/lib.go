// Package lib passes the contexts it is given to remote calls; its callers are checked.
package lib

import (
	"context"
	"database/sql"
	"net/http"
	"time"

	"example.com/greeterpb"
)

type Client struct {
	greeter greeterpb.GreeterClient
	db      *sql.DB
}

func (c *Client) Hello(ctx context.Context, name string) error {
	_, err := c.greeter.SayHello(ctx, &greeterpb.HelloRequest{Name: name})
	return err
}

func (c *Client) Count(ctx context.Context) (n int, err error) {
	err = c.db.QueryRowContext(ctx, "SELECT count(*) FROM t").Scan(&n)
	return n, err
}

func Fetch(ctx context.Context, url string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	return http.DefaultClient.Do(req)
}

// Bounded inside: callers may pass any context.
func (c *Client) HelloBounded(ctx context.Context, name string) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_, err := c.greeter.SayHello(ctx, &greeterpb.HelloRequest{Name: name})
	return err
}

// Reported in the package itself: a call of its own helper with a background context.
func Warm(c *Client) {
	c.Hello(context.Background(), "warm") // related "lib.go:18: Client.Hello passes its context to GreeterClient.SayHello" "lib.go:46: context.Background() has no deadline" // want `Client\.Hello passes a context without a deadline to GreeterClient\.SayHello, so a stalled server hangs this call`
}
