package loops

import (
	"context"
	"math/rand/v2"
	"net/http"
	"time"
)

// A backoff policy whose helpers wait in two steps: TrySleep computes the delay of try n and
// hands it to Sleep, which waits on a timer or the context. The delay of the jittered policy
// is drawn around its table's entry; the plain one's is the entry itself.

type tablePolicy struct {
	Millis []int
}

func (b tablePolicy) Duration(n int) time.Duration {
	if n >= len(b.Millis) {
		n = len(b.Millis) - 1
	}
	return time.Duration(spread(b.Millis[n])) * time.Millisecond
}

func (b tablePolicy) Sleep(ctx context.Context, t time.Duration) error {
	timer := time.NewTimer(t)
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		timer.Stop()
		return ctx.Err()
	}
}

func (b tablePolicy) TrySleep(ctx context.Context, n int) error {
	return b.Sleep(ctx, b.Duration(n))
}

// spread returns a number drawn from [millis/2, 3*millis/2).
func spread(millis int) int {
	if millis == 0 {
		return 0
	}
	return millis/2 + rand.N(millis)
}

// For calls cb until it succeeds or ctx ends, waiting the policy's jittered delays: not
// reported.
func (b tablePolicy) For(ctx context.Context, cb func(try int) error) error {
	tries := 0
	for {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		tries++
		err := cb(tries)
		if err == nil {
			return nil
		}
		if err := b.TrySleep(ctx, tries-1); err != nil {
			return err
		}
	}
}

type plainPolicy struct {
	Millis []int
}

func (b plainPolicy) Duration(n int) time.Duration {
	if n >= len(b.Millis) {
		n = len(b.Millis) - 1
	}
	return time.Duration(b.Millis[n]) * time.Millisecond
}

func (b plainPolicy) Sleep(ctx context.Context, t time.Duration) error {
	select {
	case <-time.After(t):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (b plainPolicy) TrySleep(ctx context.Context, n int) error {
	return b.Sleep(ctx, b.Duration(n))
}

// For waits the table's delays as they are: reported.
func (b plainPolicy) For(ctx context.Context, cb func(try int) error) error {
	tries := 0
	for {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		tries++
		err := cb(tries)
		if err == nil {
			return nil
		}
		if err := b.TrySleep(ctx, tries-1); err != nil { // related "waitpolicy.go:94: retry loop" // want `retry loop waits a fixed delay between attempts`
			return err
		}
	}
}

// registerWithPolicy asks a registry through For: the table's fixed delays, above, pace a remote
// dependency.
func registerWithPolicy(ctx context.Context, p plainPolicy, hc *http.Client, url string) error {
	return p.For(ctx, func(try int) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, url, nil)
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
