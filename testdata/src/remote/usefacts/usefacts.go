// Package usefacts calls functions of another package that pass their context to remote calls.
package usefacts

import (
	"context"
	"net/http"
	"time"

	"remote/facts"
)

func calls(c *facts.Client, ctx context.Context) { // want calls:`passes the context of parameter 1 to GreeterClient.SayHello at facts.go:18`
	c.Hello(context.Background(), "x") // want `gRPC call GreeterClient.SayHello via Client.Hello: unbounded \(context from context.Background\(\)\)`
	c.Hello(ctx, "x")                  // want `gRPC call GreeterClient.SayHello via Client.Hello: unknown`
	facts.Fetch(context.TODO(), "u")   // want `HTTP call http.Client.Do via Fetch: unbounded \(context from context.TODO\(\)\)`
	tctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	facts.Fetch(tctx, "u") // want `HTTP call http.Client.Do via Fetch: bounded by context.WithTimeout`
	req, _ := http.NewRequest("POST", "u", nil)
	facts.Send(req) // want `HTTP call http.Client.Do via Send: unbounded \(context from http.NewRequest\)`
	facts.FetchTimed(ctx, "u")
	facts.FetchAll(context.Background(), nil) // want `HTTP call http.Client.Do via FetchAll: unbounded \(context from context.Background\(\)\)`
}

func constructed() {
	facts.NewClient().Get("u")      // want `HTTP call http.Client.Get \(GET\): unbounded \(the http.Client returned by facts.NewClient at line 26; no context\)`
	facts.NewTimedClient().Get("u") // want `HTTP call http.Client.Get \(GET\): unknown`
}

func handDown() {
	c := &http.Client{}
	facts.Download(c, "u")                                  // want `HTTP call http.Client.Get via Download: unbounded \(the http.Client made at line 31; no context\)`
	facts.Download(&http.Client{Timeout: time.Second}, "u") // want `HTTP call http.Client.Get via Download: bounded by http.Client.Timeout`
}
