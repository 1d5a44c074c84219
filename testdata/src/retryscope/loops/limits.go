package loops

import (
	"context"
	"flag"
	"log"
	"math/rand/v2"
	"time"
)

type pushOpts struct {
	critical bool
	region   string
}

// A limit chosen among constants: the larger one caps the attempts.
func pushMetrics(ctx context.Context, opts pushOpts) error { // want pushMetrics:`retries: retry loop at limits.go:26, attempts=5`
	maxAttempts := 3
	if opts.critical {
		maxAttempts += 2
	}
	if opts.region == "" {
		opts.region = "eu-west-1"
	}
	var err error
	for i := range maxAttempts { // want `retry loop: attempts=5 wait=jittered deadline=context`
		if err = callCtx(ctx); err == nil {
			return nil
		}
		log.Printf("push to %s, attempt %d: %v", opts.region, i+1, err)
		if i < maxAttempts-1 {
			time.Sleep(time.Second/2 + rand.N(time.Second))
		}
	}
	return err
}

// A limit read from the caller stays a variable.
func pushWithLimit(ctx context.Context, limit int) error { // want pushWithLimit:`retries: retry loop at limits.go:41, attempts=variable`
	var err error
	for range limit { // want `retry loop: attempts=variable wait=jittered deadline=context`
		if err = callCtx(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second/2 + rand.N(time.Second))
	}
	return err
}

// Package variables: one that holds a constant caps the attempts; one whose address a flag
// takes is set at run time.
var (
	syncAttempts  = 4
	flushAttempts = 6
)

func init() { flag.IntVar(&flushAttempts, "flush-attempts", flushAttempts, "attempts of each flush") }

func syncState(ctx context.Context) error { // want syncState:`retries: retry loop at limits.go:61, attempts=4`
	var err error
	for range syncAttempts { // want `retry loop: attempts=4 wait=jittered deadline=context`
		if err = callCtx(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second/2 + rand.N(time.Second))
	}
	return err
}

func flushState(ctx context.Context) error { // want flushState:`retries: retry loop at limits.go:72, attempts=variable`
	var err error
	for range flushAttempts { // want `retry loop: attempts=variable wait=jittered deadline=context`
		if err = callCtx(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second/2 + rand.N(time.Second))
	}
	return err
}
