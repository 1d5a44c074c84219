package loops

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"
)

// Listening again on an address a test released: the loop stores into listener, which the
// server goroutine shares, what Listen returns; the model follows the stores of a shared
// variable to the calls that made them, each store once (it once followed listener's own
// store round and round until the stack overflowed).

func mustNot(err error) {
	if err != nil {
		panic(err)
	}
}

func serveAgain(ctx context.Context, h http.Handler, probe func() error) error { // want serveAgain:`retries: retry loop at relisten.go:31, attempts=20 \(local\)`
	var lc net.ListenConfig
	listener, err := lc.Listen(ctx, "tcp", "127.0.0.1:0")
	mustNot(err)
	addr := listener.Addr().String()
	mustNot(listener.Close())
	if err := probe(); err == nil {
		return errors.New("provider answered while down")
	}
	for range 20 { // want `retry loop: attempts=20 wait=fixed deadline=context`
		listener, err = lc.Listen(ctx, "tcp", addr)
		if err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	mustNot(err)
	srv := &http.Server{Handler: h, ReadHeaderTimeout: time.Second}
	go func() { _ = srv.Serve(listener) }()
	defer srv.Close()
	return probe()
}
