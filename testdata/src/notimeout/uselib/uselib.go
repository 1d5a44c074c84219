// Package uselib calls lib's functions, which pass the context they get to remote calls.
package uselib

import (
	"context"
	"time"

	"notimeout/lib"
)

// ---- Reported ----

func hello(c *lib.Client) {
	c.Hello(context.Background(), "x") // related "lib.go:18: Client.Hello passes its context to GreeterClient.SayHello" "uselib.go:14: context.Background() has no deadline" // want `Client\.Hello passes a context without a deadline to GreeterClient\.SayHello, so a stalled server hangs this call`
}

func count(c *lib.Client) {
	ctx := context.TODO()
	c.Count(ctx) // related "lib.go:23: Client.Count passes its context to DB.QueryRowContext" "uselib.go:18: context.TODO() has no deadline" // want `Client\.Count passes a context without a deadline to DB\.QueryRowContext, so a stalled database hangs this call`
}

func fetch() {
	lib.Fetch(context.Background(), "https://example.com") // related "lib.go:28: lib.Fetch passes its context to Client.Do" "uselib.go:23: context.Background() has no deadline" // want `lib\.Fetch passes a context without a deadline to Client\.Do, so a stalled server hangs this call; use context\.WithTimeout`
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
