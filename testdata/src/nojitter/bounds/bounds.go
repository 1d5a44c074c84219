// Package bounds holds retries that nothing stops, and retries that ignore their caller's
// context, across every scope kind and library.
package bounds

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	backoff4 "github.com/cenkalti/backoff/v4"
	backoff5 "github.com/cenkalti/backoff/v5"
	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	gax "github.com/googleapis/gax-go/v2"
	"github.com/segmentio/kafka-go"
	sethretry "github.com/sethvargo/go-retry"
	"k8s.io/apimachinery/pkg/util/wait"
)

type queue struct {
	db   *sql.DB
	hc   *http.Client
	addr string
}

func jittered(d time.Duration) time.Duration { return time.Duration(rand.Int64N(int64(d))) }

// claim makes one attempt without a context.
func (q *queue) claim(id string) error {
	res, err := q.db.Exec("UPDATE jobs SET state = 'running' WHERE id = $1 AND state = 'pending'", id)
	if err != nil {
		return fmt.Errorf("claim %s: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errors.New("not claimed")
	}
	return nil
}

// notify makes one attempt with the context it is given.
func (q *queue) notify(ctx context.Context, id string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+q.addr+"/jobs/"+id, nil)
	if err != nil {
		return err
	}
	resp, err := q.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// ---- Reported: no attempt cap and no deadline ----

func (q *queue) ClaimForever(id string) {
	for { // related "bounds.go:63: retry loop" // want `retry loop retries for ever \(no attempt cap, no deadline\); count the attempts and stop after a few`
		err := q.claim(id)
		if err == nil {
			return
		}
		log.Printf("claim %s: %v", id, err)
		time.Sleep(jittered(time.Second))
	}
}

func (q *queue) ClaimInGoroutine(id string) {
	go func() {
		for { // related "bounds.go:75: retry loop" // want `retry loop retries for ever \(no attempt cap, no deadline\); count the attempts and stop after a few`
			if err := q.claim(id); err == nil {
				return
			}
			time.Sleep(jittered(2 * time.Second))
		}
	}()
}

func (q *queue) claimRecursive(id string) error { // related "bounds.go:84: retrying recursion" // want `retrying function claimRecursive retries for ever \(no attempt cap, no deadline\); pass down how many attempts are left`
	err := q.claim(id)
	if err != nil {
		time.Sleep(jittered(time.Second))
		return q.claimRecursive(id) // the function is the scope
	}
	return nil
}

func dialForever(addr string) net.Conn {
	var conn net.Conn
	var err error
	for conn == nil { // related "bounds.go:96: retry loop" // want `retry loop retries for ever \(no attempt cap, no deadline\); count the attempts and stop after a few`
		conn, err = net.DialTimeout("tcp", addr, 5*time.Second)
		if err == nil {
			break
		}
		log.Printf("dial %s: %v", addr, err)
		time.Sleep(jittered(time.Second))
	}
	return conn
}

func (q *queue) RetryGoAttemptsZero(id string) error {
	return retrygo.Do(func() error { return q.claim(id) }, retrygo.Attempts(0)) // related "bounds.go:108: retry callback" // want `retry\.Do has no attempt cap and no deadline, so it retries for ever while the dependency is down; add retry\.Attempts\(4\)`
}

func (q *queue) CenkaltiConstantUnbounded(id string) error {
	return backoff4.Retry(func() error { return q.claim(id) }, backoff4.NewConstantBackOff(time.Second)) // related "bounds.go:112: retry callback" "bounds.go:112: retry callback" // want `backoff\.Retry waits a fixed delay between attempts, so clients that failed together retry together; add jitter` `backoff\.Retry retries for ever \(no attempt cap, no deadline\); wrap the BackOff in backoff\.WithMaxRetries\(b, 3\)`
}

func (q *queue) CenkaltiZero(id string) error {
	return backoff4.Retry(func() error { return q.claim(id) }, &backoff4.ZeroBackOff{}) // related "bounds.go:116: retry callback" // want `backoff\.Retry retries without waiting and never stops, so it hammers a failing dependency; add a jittered wait and a cap`
}

func (q *queue) CenkaltiV5Unbounded(id string) (bool, error) {
	return backoff5.Retry(context.Background(), func() (bool, error) { return true, q.claim(id) }, backoff5.WithMaxTries(0), backoff5.WithMaxElapsedTime(0)) // related "bounds.go:120: retry callback" // want `backoff\.Retry retries for ever \(no attempt cap, no deadline\); add backoff\.WithMaxTries\(4\)`
}

func (q *queue) SethvargoUnbounded(id string) error {
	b := sethretry.WithFullJitter(sethretry.NewExponential(time.Second))
	return sethretry.Do(context.Background(), b, func(context.Context) error { // related "bounds.go:125: retry callback" // want `retry\.Do retries for ever \(no attempt cap, no deadline\); wrap the backoff in retry\.WithMaxRetries\(3, b\)`
		return sethretry.RetryableError(q.claim(id))
	})
}

func (q *queue) SethvargoHelper(id string) error {
	return sethretry.Exponential(context.TODO(), time.Second, func(context.Context) error { // related "bounds.go:131: retry callback" "bounds.go:131: retry callback" // want `retry\.Exponential backs off without jitter, so clients that failed together retry together, in waves; add jitter` `retry\.Exponential retries for ever \(no attempt cap, no deadline\); wrap the backoff in retry\.WithMaxRetries\(3, b\)`
		return sethretry.RetryableError(q.claim(id))
	})
}

func (q *queue) FailsafeAttemptsZero(id string) error {
	rp := retrypolicy.NewBuilder[any]().WithMaxAttempts(0).WithJitter(time.Second).Build() // related "bounds.go:138: retry callback" // want `failsafe\.Run retries for ever \(no attempt cap, no deadline\); set WithMaxRetries\(3\) on the retry policy`
	return failsafe.Run(func() error { return q.claim(id) }, rp)
}

// A poll needs no jitter, but one that nothing ends is still reported.
func (q *queue) PollForever(id string) error {
	return wait.PollInfinite(time.Second, func() (bool, error) { // related "bounds.go:143: retry callback" // want `wait\.PollInfinite retries for ever \(no attempt cap, no deadline\); set the Backoff's Steps`
		return q.claim(id) == nil, nil
	})
}

// An in-house helper that retries for ever: reported once, inside it.
func forever(op func() error) {
	for { // related "bounds.go:150: retry loop" // want `retry loop retries for ever \(no attempt cap, no deadline\); count the attempts and stop after a few`
		if err := op(); err == nil {
			return
		}
		time.Sleep(jittered(time.Second))
	}
}

func (q *queue) UseForever(id string) {
	forever(func() error { return q.claim(id) })
}

// A ticker retried until the job is claimed.
func (q *queue) ClaimOnTicks(id string) {
	t := time.NewTicker(time.Second) // related "bounds.go:166: retry loop" // want `retry loop waits a fixed 1s between attempts, so clients that failed together retry together; add jitter`
	defer t.Stop()
	for range t.C { // related "bounds.go:166: retry loop" // want `retry loop retries for ever \(no attempt cap, no deadline\); count the attempts and stop after a few`
		if err := q.claim(id); err == nil {
			return
		}
	}
}

// ---- Reported: a context is at hand, and the retries ignore it ----

func (q *queue) ClaimIgnoringContext(ctx context.Context, id string) error {
	var err error
	for attempt := range 10 { // related "bounds.go:177: retry loop" // want `retry loop ignores ctx: its retries outlive the caller; pass ctx on`
		if err = q.claim(id); err == nil {
			return nil
		}
		log.Printf("claim %s: attempt %d: %v", id, attempt, err)
		time.Sleep(jittered(time.Second << attempt))
	}
	return err
}

func (q *queue) GotoIgnoringContext(ctx context.Context, id string) error {
	n := 0
again: // related "bounds.go:189: goto retry loop" // want `goto retry loop ignores ctx: its retries outlive the caller; pass ctx on`
	if err := q.claim(id); err != nil && n < 5 {
		n++
		time.Sleep(jittered(2 * time.Second))
		goto again
	}
	return nil
}

func (q *queue) recursiveIgnoringContext(ctx context.Context, id string, left int) error { // related "bounds.go:198: retrying recursion" // want `retrying function recursiveIgnoringContext ignores ctx: its retries outlive the caller; pass ctx on`
	err := q.claim(id)
	if err != nil && left > 0 {
		time.Sleep(jittered(5 * time.Second))
		return q.recursiveIgnoringContext(ctx, id, left-1)
	}
	return err
}

func (q *queue) ClosureIgnoringContext(ctx context.Context, ids []string) {
	for _, id := range ids {
		go func() {
			for attempt := 0; attempt < 5; attempt++ { // related "bounds.go:210: retry loop" // want `retry loop ignores ctx: its retries outlive the caller; pass ctx on`
				if err := q.notify(context.Background(), id); err == nil {
					return
				}
				time.Sleep(jittered(time.Second))
			}
		}()
	}
}

func (q *queue) RetryGoBackgroundContext(ctx context.Context, id string) error {
	return retrygo.Do(func() error { return q.claim(id) }, retrygo.Attempts(5), retrygo.Context(context.Background())) // related "bounds.go:221: retry callback" // want `retry\.Do does not observe ctx, so its retries outlive the caller's deadline; add retry\.Context\(ctx\)`
}

func (q *queue) CenkaltiV5Background(ctx context.Context, id string) (bool, error) {
	return backoff5.Retry(context.Background(), func() (bool, error) { return true, q.claim(id) }, backoff5.WithMaxTries(5), backoff5.WithMaxElapsedTime(0)) // related "bounds.go:225: retry callback" // want `backoff\.Retry does not observe ctx, so its retries outlive the caller's deadline; pass ctx to backoff\.Retry`
}

func (q *queue) SethvargoBackground(ctx context.Context, id string) error {
	b := sethretry.WithMaxRetries(5, sethretry.WithFullJitter(sethretry.NewExponential(time.Second)))
	return sethretry.Do(context.Background(), b, func(context.Context) error { // related "bounds.go:230: retry callback" // want `retry\.Do does not observe ctx, so its retries outlive the caller's deadline; pass ctx to retry\.Do`
		return sethretry.RetryableError(q.claim(id))
	})
}

func (q *queue) GaxBackground(ctx context.Context, id string, opts ...gax.CallOption) error {
	return gax.Invoke(context.Background(), func(context.Context, gax.CallSettings) error { // related "bounds.go:236: retry callback" // want `gax\.Invoke has no attempt cap and ignores ctx: it retries for ever; pass ctx to gax\.Invoke`
		return q.claim(id)
	}, opts...)
}

func (q *queue) FailsafeNoContext(ctx context.Context, id string) error {
	rp := retrypolicy.NewBuilder[any]().WithMaxRetries(5).WithJitter(time.Second).Build()
	return failsafe.Run(func() error { return q.claim(id) }, rp) // related "bounds.go:243: retry callback" // want `failsafe\.Run does not observe ctx, so its retries outlive the caller's deadline; run it with \.WithContext\(ctx\)`
}

func (q *queue) KubernetesNoContext(ctx context.Context, id string) error {
	return wait.ExponentialBackoff(wait.Backoff{Steps: 6, Duration: time.Second, Factor: 2, Jitter: 0.5}, func() (bool, error) { // related "bounds.go:247: retry callback" // want `wait\.ExponentialBackoff ignores ctx: its retries outlive the caller; pass ctx on`
		return q.claim(id) == nil, nil
	})
}

func (q *queue) PollNoContext(ctx context.Context, id string) error {
	return wait.PollImmediate(time.Second, time.Minute, func() (bool, error) {
		return q.claim(id) == nil, nil // a time limit bounds it: not reported
	})
}

// ---- Not reported ----

func (q *queue) ClaimWithContext(ctx context.Context, id string) error {
	var err error
	for attempt := range 10 {
		if err = q.claim(id); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(time.Second << attempt)):
		}
	}
	return err
}

func (q *queue) NotifyPassingContext(ctx context.Context, id string) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = q.notify(ctx, id); err == nil {
			return nil
		}
		time.Sleep(jittered(time.Second))
	}
	return err
}

func (q *queue) RetryGoWithContext(ctx context.Context, id string) error {
	return retrygo.Do(func() error { return q.claim(id) }, retrygo.Attempts(5), retrygo.Context(ctx))
}

func (q *queue) CenkaltiWithContext(ctx context.Context, id string) error {
	return backoff4.Retry(func() error { return q.claim(id) }, backoff4.WithContext(backoff4.NewExponentialBackOff(), ctx))
}

// Bounded by its count, and no context anywhere in reach: nothing to report.
func (q *queue) ClaimAtStartup(id string) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = q.claim(id); err == nil {
			return nil
		}
		time.Sleep(jittered(time.Second))
	}
	return err
}

// The caller can stop it: a select on a stop channel.
func (q *queue) JoinUntilStopped(id string, stop <-chan struct{}) error {
	tick := time.NewTicker(time.Second) // related "bounds.go:310: retry loop" // want `retry loop waits a fixed 1s between attempts, so clients that failed together retry together; add jitter`
	defer tick.Stop()
	for {
		err := q.claim(id)
		if err == nil {
			return nil
		}
		select {
		case <-stop:
			return err
		case <-tick.C:
		}
	}
}

// A policy the model cannot see decides when to stop.
type policy interface {
	Next(n int) (time.Duration, bool)
}

func (q *queue) WithPolicy(id string, p policy) error {
	var err error
	for n := 1; ; n++ {
		if err = q.claim(id); err == nil {
			return nil
		}
		wait, again := p.Next(n)
		if !again {
			return err
		}
		time.Sleep(wait)
	}
}

// A consumer that drops what it cannot decode and takes the next message: iteration (the
// knowledge tables say kafka-go's Reader.FetchMessage takes the next item of a source).
func Consume(ctx context.Context, r *kafka.Reader, handle func([]byte) error) {
	for {
		msg, err := r.FetchMessage(ctx)
		if err != nil {
			continue
		}
		if err := handle(msg.Value); err == nil {
			return
		}
	}
}

// Reading frames from a buffered reader: the reader moves on each round.
type reader interface {
	PeekType() (byte, error)
	ReadFrame() ([]byte, error)
}

func Drain(rd reader) {
	for {
		t, err := rd.PeekType()
		if err != nil {
			break
		}
		if t != '>' {
			break
		}
		if _, err := rd.ReadFrame(); err != nil {
			return
		}
	}
}

// Trying each port in turn, through a config field.
type dbConfig struct {
	Name string
	Port int
}

func create(cfg dbConfig) error { return nil }

func CreateOnFreePort(cfg dbConfig) error {
	port := cfg.Port
	for attempt := 0; attempt < 100; attempt++ {
		cfg.Port = port
		if err := create(cfg); err == nil {
			return nil
		}
		port++
	}
	return errors.New("no free port")
}
