package loops

import (
	"context"
	"errors"
	"math/rand"
	"net/http"
	"time"
)

func call() error                                  { return nil }
func callCtx(ctx context.Context) error            { return nil }
func fetch(id string) (string, error)              { return "", nil }
func do(req *http.Request) (*http.Response, error) { return nil, nil }

// Counted loop, fixed sleep, leaves on success.
func counted() error { // want counted:`retries: retry loop at loops.go:19, attempts=3`
	var err error
	for attempt := 0; attempt < 3; attempt++ { // want `retry loop: attempts=3 wait=fixed deadline=none`
		err = call()
		if err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

// Range over an integer, exponential backoff, context passed on.
func rangeInt(ctx context.Context) error { // want rangeInt:`retries: retry loop at loops.go:32, attempts=5`
	var err error
	for i := range 5 { // want `retry loop: attempts=5 wait=backoff deadline=context`
		if err = callCtx(ctx); err == nil {
			break
		}
		time.Sleep(time.Duration(1<<i) * 100 * time.Millisecond)
	}
	return err
}

// for {} with a counter checked after the call; jittered sleep.
func forever() error { // want forever:`retries: retry loop at loops.go:44, attempts=3`
	attempt := 1
	for { // want `retry loop: attempts=3 wait=jittered deadline=none`
		err := call()
		if err == nil {
			return nil
		}
		if attempt >= 3 {
			return err
		}
		attempt++
		time.Sleep(time.Duration(rand.Int63n(int64(time.Second))))
	}
}

// for {} without any bound: unbounded.
func unbounded() { // want unbounded:`retries: retry loop at loops.go:59, attempts=unbounded`
	for { // want `retry loop: attempts=unbounded wait=fixed deadline=none`
		if err := call(); err == nil {
			return
		}
		time.Sleep(time.Second)
	}
}

// for cond: the error itself keeps the loop going.
func forCond() error { // want forCond:`retries: retry loop at loops.go:70, attempts=4`
	err := call()
	for i := 0; err != nil && i < 4; i++ { // want `retry loop: attempts=4 wait=none deadline=none`
		err = call()
	}
	return err
}

// Status code decides; context checked in a select.
func status(ctx context.Context, req *http.Request) (*http.Response, error) { // want status:`retries: retry loop at loops.go:78, attempts=4`
	for attempt := 0; attempt < 4; attempt++ { // want `retry loop: attempts=4 wait=fixed deadline=context`
		resp, err := do(req)
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return nil, errors.New("gave up")
}

// Failure continues, success falls through to a return.
func continueOnFailure() (string, error) { // want continueOnFailure:`retries: retry loop at loops.go:94, attempts=3`
	for n := 3; n > 0; n-- { // want `retry loop: attempts=3 wait=none deadline=none`
		v, err := fetch("a")
		if err != nil {
			continue
		}
		return v, nil
	}
	return "", errors.New("no")
}

// Elapsed-time bound.
func elapsed() error { // want elapsed:`retries: retry loop at loops.go:107, attempts=unbounded`
	start := time.Now()
	for { // want `retry loop: attempts=unbounded wait=fixed deadline=elapsed`
		if err := call(); err == nil {
			return nil
		}
		if time.Since(start) > time.Minute {
			return errors.New("timeout")
		}
		time.Sleep(time.Second)
	}
}

// goto retry.
func gotoRetry() error { // want gotoRetry:`retries: goto retry loop at loops.go:121, attempts=4`
	attempts := 0
retry: // want `goto retry loop: attempts=4 wait=fixed deadline=none`
	err := call()
	if err != nil && attempts < 3 {
		attempts++
		time.Sleep(time.Second)
		goto retry
	}
	return err
}

// Recursion after a failure.
func send(n int) error { // want `retrying recursion: attempts=variable wait=fixed deadline=none` send:`retries: retrying recursion at loops.go:132, attempts=variable`
	err := call()
	if err != nil && n > 0 {
		time.Sleep(time.Second)
		return send(n - 1)
	}
	return err
}

// Nested: the inner loop retries, the outer one iterates over orders.
func nested(orders []string) { // want nested:`retries: retry loop at loops.go:144, attempts=2`
	for _, o := range orders {
		for i := 0; i < 2; i++ { // want `retry loop: attempts=2 wait=none deadline=none`
			if _, err := fetch(o); err == nil {
				break
			}
		}
	}
}

// ---- Not retry scopes ----

// Iteration over a collection.
func iterate(orders []string) error {
	for _, o := range orders {
		if _, err := fetch(o); err != nil {
			return err
		}
	}
	return nil
}

// Iteration by index that stops at the first success: a search, not a retry.
func search(ids []string) string {
	for i := 0; i < len(ids); i++ {
		if v, err := fetch(ids[i]); err == nil {
			return v
		}
	}
	return ""
}

// Counted loop that fails fast: one operation per iteration.
func each(n int) error {
	for i := 0; i < n; i++ {
		if err := call(); err != nil {
			return err
		}
	}
	return nil
}

// Ticker-driven periodic work.
func poll(ctx context.Context) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := call(); err != nil {
				println(err.Error())
			}
		}
	}
}

// Range over a channel.
func drain(ch chan string) {
	for id := range ch {
		if _, err := fetch(id); err == nil {
			println("ok")
		}
	}
}

// Accept-style loop: goes round on success too.
func serve() error {
	for {
		if err := call(); err != nil {
			time.Sleep(time.Second)
			continue
		}
		println("handled")
	}
}

// Recursion over a tree is not retry.
type node struct{ kids []*node }

func walk(n *node) error {
	if err := call(); err != nil {
		return err
	}
	for _, k := range n.kids {
		if err := walk(k); err != nil {
			return err
		}
	}
	return nil
}

// ---- Shapes seen in real code ----

// Both exits leave through the same block (break): still a retry.
func breakBoth() error { // want breakBoth:`retries: retry loop at loops.go:240, attempts=4`
	var err error
	for attempt := 0; ; attempt++ { // want `retry loop: attempts=4 wait=fixed deadline=none`
		err = call()
		if err == nil {
			break
		}
		if attempt >= 3 {
			break
		}
		time.Sleep(time.Second)
	}
	return err
}

type result struct{ retryable bool }

func tryOnce() (*result, error) { return nil, nil }

// Success is followed by a check the model does not know: still a retry.
func successThenCheck() (*result, error) { // want successThenCheck:`retries: retry loop at loops.go:259, attempts=3`
	for attempt := 0; attempt < 3; attempt++ { // want `retry loop: attempts=3 wait=fixed deadline=none`
		r, err := tryOnce()
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		if r.retryable {
			continue
		}
		return r, nil
	}
	return nil, errors.New("gave up")
}

func cut(s, sep string) (string, string) { return s, "" }
func unescape(s string) (string, error)  { return s, nil }
func store(k string) error               { return nil }

// Consuming a string token by token: the loop leaves only when a later call fails.
func tokens(s string) (err error) {
	for s != "" {
		var tok string
		tok, s = cut(s, "&")
		tok, err1 := unescape(tok)
		if err1 != nil {
			if err == nil {
				err = err1
			}
			continue
		}
		if err = store(tok); err != nil {
			return err
		}
	}
	return err
}

type lines struct{}

func (l *lines) next() (string, bool, error) { return "", false, nil }
func atoi(s string) (int, error)             { return 0, nil }

// Reading a stream: an optional field is parsed, and both sides merge before the loop ends.
func readEvent(l *lines) (int, error) {
	n := 0
	for {
		line, eof, err := l.next()
		if err != nil {
			return 0, err
		}
		if v, perr := atoi(line); perr == nil && v >= 0 {
			n = v
		}
		if eof {
			return n, nil
		}
	}
}

// A retry policy decides: the loop leaves when it says no.
type sdk struct{ client *http.Client }

func (s *sdk) shouldRetry(err error, resp *http.Response, n int) (bool, string) { return false, "" }
func (s *sdk) sleepTime(n int) time.Duration                                    { return time.Second }

func (s *sdk) send(req *http.Request) (*http.Response, error) { // want send:`retries: retry loop at loops.go:327, attempts=unknown`
	var resp *http.Response
	var err error
	for n := 0; ; { // want `retry loop: attempts=unknown wait=fixed deadline=context`
		resp, err = s.client.Do(req)
		ok, _ := s.shouldRetry(err, resp, n)
		if !ok {
			break
		}
		time.Sleep(s.sleepTime(n))
		n++
	}
	return resp, err
}

// The policy is a func-valued field, and a limit shares the exit.
type retrying struct {
	CheckRetry func(ctx context.Context, resp *http.Response, err error) (bool, error)
	Max        int
}

func waitFor(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func (c *retrying) do(ctx context.Context, req *http.Request) (*http.Response, error) { // want do:`retries: retry loop at loops.go:359, attempts=variable`
	var resp *http.Response
	var err error
	for n := 0; n <= c.Max; n++ { // want `retry loop: attempts=variable wait=fixed deadline=context`
		resp, err = do(req)
		retry, _ := c.CheckRetry(ctx, resp, err)
		if !retry || n >= c.Max {
			break
		}
		if err := waitFor(ctx, time.Second); err != nil {
			return nil, err
		}
	}
	return resp, err
}

// Each tick of a ticker is an attempt.
func ticks(t *time.Ticker) error { // want ticks:`retries: retry loop at loops.go:375, attempts=unbounded`
	var err error
	for range t.C { // want `retry loop: attempts=unbounded wait=unknown deadline=none`
		if err = call(); err != nil {
			continue
		}
		break
	}
	return err
}

// A context that bounds nothing does not count as a deadline.
func logCtx(ctx context.Context, msg string) {}

func background() error { // want background:`retries: retry loop at loops.go:390, attempts=3`
	ctx := context.Background()
	var err error
	for attempt := 0; attempt < 3; attempt++ { // want `retry loop: attempts=3 wait=none deadline=none`
		logCtx(ctx, "trying")
		if err = callCtx(ctx); err == nil {
			return nil
		}
	}
	return err
}

// ---- More look-alikes that are not retries ----

func listen(port int) error { return nil }

// Trying each port of a range is a search.
func freePort(lo, hi int) (int, error) {
	for port := lo; port <= hi; port++ {
		if err := listen(port); err != nil {
			continue
		}
		return port, nil
	}
	return 0, errors.New("no free port")
}

type methods interface {
	NumMethod() int
	Method(i int) string
}

func check(string) error { return nil }

// Counting up to a length walks a collection.
func firstValid(v methods) string {
	for i := 0; i < v.NumMethod(); i++ {
		m := v.Method(i)
		if err := check(m); err != nil {
			continue
		}
		return m
	}
	return ""
}

func decode(b []byte) (string, error) { return "", nil }

// Taking messages from a channel until one decodes consumes a queue.
func firstDecoded(ch chan []byte) string {
	for {
		b, ok := <-ch
		if !ok {
			return ""
		}
		s, err := decode(b)
		if err == nil {
			return s
		}
	}
}

func set(key string, v any) error { return nil }

// Recursion over a smaller path after a failure walks a structure.
func setPath(path []string, v any) error {
	if len(path) == 0 {
		return nil
	}
	if err := set(path[0], v); err != nil {
		return setPath(path[1:], v)
	}
	return nil
}

// A timer made in the loop with a growing delay: backoff, not an unknown wait.
func timerBackoff(ctx context.Context) error { // want timerBackoff:`retries: retry loop at loops.go:466, attempts=4`
	delay := 100 * time.Millisecond
	var err error
	for attempt := 0; attempt < 4; attempt++ { // want `retry loop: attempts=4 wait=backoff deadline=context`
		if attempt > 0 {
			t := time.NewTimer(delay)
			select {
			case <-ctx.Done():
				t.Stop()
				return ctx.Err()
			case <-t.C:
			}
			delay *= 2
		}
		if err = call(); err == nil {
			return nil
		}
	}
	return err
}

// A ticker made before the loop sets a fixed pace.
func tickerPace(ctx context.Context) error { // want tickerPace:`retries: retry loop at loops.go:489, attempts=5`
	t := time.NewTicker(time.Second)
	defer t.Stop()
	var err error
	for attempt := 0; attempt < 5; attempt++ { // want `retry loop: attempts=5 wait=fixed deadline=none`
		if err = call(); err == nil {
			return nil
		}
		<-t.C
	}
	return err
}

// Delays computed by the package's own functions and literals are classified from their
// bodies.
type pacer struct{ base time.Duration }

func (p *pacer) delay(n int) time.Duration { return p.base * time.Duration(n+1) }
func (p *pacer) pause(int) time.Duration   { return p.base }

func localBackoff(ctx context.Context, base time.Duration) error { // want localBackoff:`retries: retry loop`
	backoff := func(n int) time.Duration { return base << n }
	for n := 0; n < 5; n++ { // want `retry loop: attempts=5 wait=backoff deadline=context`
		if err := callCtx(ctx); err == nil {
			return nil
		}
		time.Sleep(backoff(n))
	}
	return nil
}

func localJitter(ctx context.Context) error { // want localJitter:`retries: retry loop`
	jittered := func(d time.Duration) time.Duration {
		if d <= 0 {
			return 0
		}
		return time.Duration(rand.Int63n(int64(d)))
	}
	for n := 0; n < 5; n++ { // want `retry loop: attempts=5 wait=jittered deadline=context`
		if err := callCtx(ctx); err == nil {
			return nil
		}
		time.Sleep(jittered(time.Second))
	}
	return nil
}

func methodDelays(ctx context.Context, p *pacer) error { // want methodDelays:`retries: retry loop`
	for n := 0; n < 3; n++ { // want `retry loop: attempts=3 wait=backoff deadline=context`
		if err := callCtx(ctx); err == nil {
			return nil
		}
		time.Sleep(p.delay(n))
	}
	for n := 0; n < 3; n++ { // want `retry loop: attempts=3 wait=fixed deadline=context`
		if err := callCtx(ctx); err == nil {
			return nil
		}
		time.Sleep(p.pause(n))
	}
	return nil
}

// A verdict variable named for retrying, assembled from the error and retry conditions,
// decides (resty's Backoff has this shape).
func verdictLoop(op func() (*http.Response, error), conds []func(*http.Response, error) bool, max int) error { // want verdictLoop:`retry helper for parameter \[0\]: attempts=variable wait=fixed deadline=none` verdictLoop:`retries: retry loop`
	var err error
	for attempt := 0; attempt <= max; attempt++ { // want `retry loop: attempts=variable wait=fixed deadline=none`
		var resp *http.Response
		resp, err = op()
		needsRetry := err != nil
		for _, cond := range conds {
			if needsRetry = cond(resp, err); needsRetry {
				break
			}
		}
		if !needsRetry {
			return err
		}
		if attempt == max {
			return err
		}
		time.Sleep(time.Second)
	}
	return err
}

// A flag that is not a retry verdict does not decide: each item is sent once.
func flagLoop(items []string, send func(string) error) {
	for i := 0; i < len(items); i++ {
		failed := send(items[i]) != nil
		if !failed {
			continue
		}
		time.Sleep(time.Second)
	}
}

// A delay function that can fail: (time.Duration, error).
func nextDelay(attempt int) (time.Duration, error) {
	if attempt > 10 {
		return 0, errors.New("too many")
	}
	return time.Duration(rand.Int63n(int64(time.Second) << attempt)), nil
}

func fallibleDelay(ctx context.Context) error { // want fallibleDelay:`retries: retry loop`
	for attempt := 0; attempt < 4; attempt++ { // want `retry loop: attempts=4 wait=jittered deadline=context`
		if err := callCtx(ctx); err == nil {
			return nil
		}
		d, err := nextDelay(attempt)
		if err != nil {
			return err
		}
		time.Sleep(d)
	}
	return nil
}

// A function named for sleeping that returns the delay does not wait: its caller does.
func sleepFor(min time.Duration, attempt int) time.Duration { return min << attempt }

func computedSleep(ctx context.Context) error { // want computedSleep:`retries: retry loop`
	for attempt := 0; attempt < 3; attempt++ { // want `retry loop: attempts=3 wait=backoff deadline=context`
		if err := callCtx(ctx); err == nil {
			return nil
		}
		select {
		case <-time.After(sleepFor(time.Millisecond, attempt)):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// Wait helpers that take no duration: the model reads their bodies.
type waiter struct{ delay time.Duration }

func (p *waiter) waitForRetry()                 { time.Sleep(p.delay) }
func waitForRetryN(attempt int)                 { time.Sleep(time.Duration(1<<attempt) * 100 * time.Millisecond) }
func pauseFor(d time.Duration)                  { time.Sleep(d) }
func hold(ctx context.Context, d time.Duration) { pauseFor(d) }

func waitHelperField(p *waiter) error { // want waitHelperField:`retries: retry loop`
	var err error
	for attempt := 0; attempt < 3; attempt++ { // want `retry loop: attempts=3 wait=fixed deadline=none`
		if err = call(); err == nil {
			return nil
		}
		p.waitForRetry()
	}
	return err
}

func waitHelperAttempt() error { // want waitHelperAttempt:`retries: retry loop`
	var err error
	for attempt := 0; attempt < 3; attempt++ { // want `retry loop: attempts=3 wait=backoff deadline=none`
		if err = call(); err == nil {
			return nil
		}
		waitForRetryN(attempt)
	}
	return err
}

// The helper waits for the duration it is given: the caller's argument decides.
func waitHelperArgument(ctx context.Context) error { // want waitHelperArgument:`retries: retry loop`
	var err error
	for attempt := 0; attempt < 3; attempt++ { // want `retry loop: attempts=3 wait=jittered deadline=context`
		if err = callCtx(ctx); err == nil {
			return nil
		}
		hold(ctx, time.Duration(rand.Int63n(int64(time.Second))))
	}
	return err
}

// Nothing reached between attempts waits: a hot loop.
func hotLoop() error { // want hotLoop:`retries: retry loop`
	var err error
	for attempt := 0; attempt < 3; attempt++ { // want `retry loop: attempts=3 wait=none deadline=none`
		if err = call(); err == nil {
			return nil
		}
	}
	return err
}

// Verdicts decided by structure, whatever their names.
func shouldContinue(resp *http.Response, err error) bool {
	return err != nil || resp.StatusCode >= 500
}

func verdictCall(req *http.Request) error { // want verdictCall:`retries: retry loop`
	for attempt := 0; attempt < 4; attempt++ { // want `retry loop: attempts=4 wait=fixed deadline=context`
		resp, err := do(req)
		if !shouldContinue(resp, err) {
			return err
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func transient(err error) bool { return err != nil }

func verdictVariable(ctx context.Context) error { // want verdictVariable:`retries: retry loop`
	var err error
	for attempt := 0; attempt < 3; attempt++ { // want `retry loop: attempts=3 wait=fixed deadline=context`
		err = callCtx(ctx)
		again := err != nil && transient(err)
		if !again {
			break
		}
		time.Sleep(time.Second)
	}
	return err
}

// A loop that stops when a standard predicate says the source is exhausted is not a retry.
func drainUntilCanceled(next func() error) {
	for {
		if err := next(); errors.Is(err, context.Canceled) {
			return
		}
	}
}

// A chain of tasks: each round processes the task the previous round's response named.
type task struct{ next *task }

func process(t *task) (*task, error)            { return nil, nil }
func respond(t *task, err error) (*task, error) { return nil, nil }

func chain(first *task) error {
	t := first
	for {
		done, err := process(t)
		if done == nil && err == nil {
			return nil
		}
		resp, rerr := respond(done, err)
		if rerr != nil {
			return rerr
		}
		if resp == nil || err != nil {
			return nil
		}
		t = resp.next
	}
}

// A receive that delivers through a callback: each round handles a new value.
type inbox struct{}

func (inbox) receiveAsync(cb func(v string)) bool { return true }
func decodeInto(v string, into *string) error     { return nil }

func consume(in inbox, into *string) {
	var got string
	cb := func(v string) { got = v }
	for {
		in.receiveAsync(cb)
		if err := decodeInto(got, into); err == nil {
			return
		}
		// a corrupt value: drop it and take the next one
	}
}

// Unwrapping a chain of causes: each round works on what the previous call returned.
type causer interface{ Cause() error }

func rootCause(err error) error {
	for err != nil {
		c, ok := err.(causer)
		if !ok {
			break
		}
		err = c.Cause()
	}
	return err
}

// The same walk that tests the cause before taking it: the cause taken is another call of
// the same method on the same value, not a new attempt.
func rootCauseChecked(err error) error {
	for err != nil {
		c, ok := err.(causer)
		if !ok || c.Cause() == nil {
			break
		}
		err = c.Cause()
	}
	return err
}

// The same, with an argument: each round asks the error for its first layer twice.
type layered interface{ Layer(i int) error }

func firstLayers(err error) error {
	for err != nil {
		l, ok := err.(layered)
		if !ok || l.Layer(0) == nil {
			break
		}
		err = l.Layer(0)
	}
	return err
}

// Walking up parent sections: the name shrinks each round.
type sections map[string]map[string]string

func (s sections) get(name string) (map[string]string, error) { return nil, nil }

func lookupKey(s sections, section, key string) string {
	name := section
	for {
		if i := lastDot(name); i > -1 {
			name = name[:i]
			sec, err := s.get(name)
			if err != nil {
				continue
			}
			return sec[key]
		}
		break
	}
	return ""
}

func lastDot(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '.' {
			return i
		}
	}
	return -1
}
