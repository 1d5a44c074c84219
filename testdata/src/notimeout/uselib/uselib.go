// Package uselib calls lib's functions, which pass the context they get to remote calls.
package uselib

import (
	"context"
	"time"

	"notimeout/lib"
)

// ---- Reported ----

func hello(c *lib.Client) {
	c.Hello(context.Background(), "x") // want `Client.Hello passes a context without a deadline, from context.Background\(\) \(line 14\), to GreeterClient.SayHello \(lib.go:19\)`
}

func count(c *lib.Client) {
	ctx := context.TODO()
	c.Count(ctx) // want `Client.Count passes a context without a deadline, from context.TODO\(\) \(line 18\), to sql.DB.QueryRowContext \(lib.go:24\), which nothing else bounds: a stalled database blocks that call forever`
}

func fetch() {
	lib.Fetch(context.Background(), "https://example.com") // want `Fetch passes a context without a deadline`
}

// ---- Not reported ----

func helloDeadline(c *lib.Client) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	c.Hello(ctx, "x")
	lib.Fetch(ctx, "https://example.com")
}

func helloFromCaller(ctx context.Context, c *lib.Client) {
	c.Hello(ctx, "x")
}

func bounded(c *lib.Client) {
	c.HelloBounded(context.Background(), "x")
}
