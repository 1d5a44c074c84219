// Package watchhandler keeps a server stream of updates open for the life of the process.
// When the stream fails the loop asks an error handler whether to go on: the handler gives up
// on a cancelled or refused watch, and otherwise logs, waits for the backoff's next delay and
// returns nil, so the loop opens the stream again. The wait between attempts is the handler's.
package watchhandler

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"time"

	"example.com/greeterpb"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Backoff says how long to wait before the next attempt.
type Backoff interface {
	Next() time.Duration
	Reset()
}

// linearBackoff waits one more initial delay after each failure, up to a ceiling: the
// package's default.
type linearBackoff struct {
	initial, max time.Duration
	n            int
}

func (b *linearBackoff) Next() time.Duration {
	d := time.Duration(b.n+1) * b.initial
	b.n++
	return min(d, b.max)
}

func (b *linearBackoff) Reset() { b.n = 0 }

// backoff doubles its delay on every failure up to a ceiling, and starts again after a success.
type backoff struct {
	initial, max, cur time.Duration
}

func (b *backoff) Next() time.Duration {
	if b.cur == 0 {
		b.cur = b.initial
	} else {
		b.cur *= 2
	}
	if b.cur > b.max {
		b.cur = b.max
	}
	return b.cur
}

func (b *backoff) Reset() { b.cur = 0 }

// Watcher forwards every update of the stream to its channel.
type Watcher struct {
	client  greeterpb.GreeterClient
	log     *slog.Logger
	updates chan<- string
	jitter  bool
}

// Run opens the stream again after every failure until the handler gives up.
func (w *Watcher) Run(ctx context.Context) error {
	bo := &backoff{initial: time.Second, max: 30 * time.Second}
	for {
		err := w.watchOnce(ctx, bo)
		if err := w.onStreamError(ctx, err, bo); err != nil { // related "watchhandler.go:70: retry loop", "watchhandler.go:105: also waits through onStreamError" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
			return err
		}
	}
}

func (w *Watcher) watchOnce(ctx context.Context, bo Backoff) error {
	stream, err := w.client.WatchHellos(ctx, &greeterpb.HelloRequest{Name: "svid"})
	if err != nil {
		return err
	}
	for {
		reply, err := stream.Recv()
		if err != nil {
			return err
		}
		bo.Reset()
		select {
		case w.updates <- reply.Message:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// RunStatus watches another stream with the same handler: its waits are the same finding.
func (w *Watcher) RunStatus(ctx context.Context) error {
	bo := &linearBackoff{initial: time.Second, max: 30 * time.Second}
	for {
		stream, err := w.client.WatchHellos(ctx, &greeterpb.HelloRequest{Name: "status"})
		if err == nil {
			err = w.forward(ctx, stream, bo)
		}
		if err := w.onStreamError(ctx, err, bo); err != nil {
			return err
		}
	}
}

func (w *Watcher) forward(ctx context.Context, stream grpc.ServerStreamingClient[greeterpb.HelloReply], bo Backoff) error {
	for {
		reply, err := stream.Recv()
		if err != nil {
			return err
		}
		bo.Reset()
		select {
		case w.updates <- "status: " + reply.Message:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// onStreamError decides what a failed watch does next: nil means watch again.
func (w *Watcher) onStreamError(ctx context.Context, err error, bo Backoff) error {
	switch status.Code(err) {
	case codes.Canceled:
		return err
	case codes.InvalidArgument, codes.PermissionDenied:
		w.log.Error("watch refused", "err", err)
		return err
	}
	d := bo.Next()
	w.log.Warn("watch failed; watching again", "err", err, "in", d)
	select {
	case <-time.After(d):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// RunJittered is the same loop with a handler that spreads its waits.
func (w *Watcher) RunJittered(ctx context.Context) error {
	bo := &backoff{initial: time.Second, max: 30 * time.Second}
	for {
		err := w.watchOnce(ctx, bo)
		if err := w.onStreamErrorJittered(ctx, err, bo); err != nil {
			return err
		}
	}
}

func (w *Watcher) onStreamErrorJittered(ctx context.Context, err error, bo *backoff) error {
	if status.Code(err) == codes.Canceled {
		return err
	}
	d := bo.Next()
	d = d/2 + rand.N(d/2)
	w.log.Warn("watch failed; watching again", "err", err, "in", d)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// A pager that pauses after each page it got, so as not to press the server: its handler
// waits only after a success, which paces a schedule; a failure ends the walk at once.
type pager struct {
	client   greeterpb.GreeterClient
	interval time.Duration
}

func (p *pager) afterPage(err error) error {
	if err != nil {
		return err
	}
	time.Sleep(p.interval)
	return nil
}

// Walk reads every page until the server says it has no more.
func (p *pager) Walk(ctx context.Context, visit func(string)) error {
	for {
		reply, err := p.client.SayHello(ctx, &greeterpb.HelloRequest{Name: "page"})
		if err := p.afterPage(err); err != nil {
			return err
		}
		if reply.Message == "" {
			return nil
		}
		visit(reply.Message)
	}
}

// Hello asks the server once it answers, one more second apart after each failure: the
// delay grows with the count the backoff keeps.
func (w *Watcher) Hello(ctx context.Context, name string) (string, error) {
	lb := &linearBackoff{initial: time.Second, max: 10 * time.Second}
	for attempt := 0; ; attempt++ {
		reply, err := w.client.SayHello(ctx, &greeterpb.HelloRequest{Name: name})
		if err == nil {
			return reply.Message, nil
		}
		if attempt == 4 || status.Code(err) == codes.InvalidArgument {
			return "", err
		}
		w.log.Warn("hello failed", "attempt", attempt, "err", err)
		select {
		case <-time.After(lb.Next()): // related "watchhandler.go:206: retry loop" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}

// pause waits d, or less if ctx ends first: each caller says how long.
func pause(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Greet and Farewell each wait their own fixed delay through pause: two findings, one per loop.
func (w *Watcher) Greet(ctx context.Context, name string) (string, error) {
	for attempt := 1; ; attempt++ {
		reply, err := w.client.SayHello(ctx, &greeterpb.HelloRequest{Name: "hello " + name})
		if err == nil {
			return reply.Message, nil
		}
		if attempt == 3 {
			return "", err
		}
		if err := pause(ctx, 2*time.Second); err != nil { // related "watchhandler.go:237: retry loop" // want `retry loop waits a fixed 2s between attempts, so clients that failed together retry together; add jitter`
			return "", err
		}
	}
}

func (w *Watcher) Farewell(ctx context.Context, name string) (string, error) {
	for attempt := 1; ; attempt++ {
		reply, err := w.client.SayHello(ctx, &greeterpb.HelloRequest{Name: "bye " + name})
		if err == nil {
			return reply.Message, nil
		}
		if attempt == 5 {
			return "", err
		}
		w.log.Warn("farewell failed", "attempt", attempt, "err", err)
		if err := pause(ctx, 500*time.Millisecond); err != nil { // related "watchhandler.go:252: retry loop" // want `retry loop waits a fixed 500ms between attempts, so clients that failed together retry together; add jitter`
			return "", err
		}
	}
}
