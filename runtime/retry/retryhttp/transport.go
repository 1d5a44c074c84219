// Package retryhttp applies a retry.Policy to HTTP requests, as an http.RoundTripper.
//
//	client := &http.Client{
//		Timeout:   10 * time.Second,
//		Transport: &retryhttp.Transport{Policy: retry.Policy{Budget: budget}, IdempotencyKeys: true},
//	}
//
// The transport retries what [retry.IsRetryable] (or the policy's classifier) accepts: so a
// POST or PATCH only when it carries an Idempotency-Key or never left (dial, DNS, refused, TLS
// handshake). With IdempotencyKeys set it gives each POST and PATCH that has no key one key,
// before the first attempt, and sends that same key on every attempt; a keyed request's 409 with
// Retry-After (the key still in progress at a runtime/idempotency server) is retried with it
// until the stored result comes. It honours Retry-After (never retrying earlier than asked),
// rewinds bodies with Request.GetBody (a request with a body and no GetBody is sent once), and
// drains and closes the bodies of the attempts it retries.
//
// When the last attempt got a response, whatever its status, RoundTrip returns it as is,
// as a transport without retries would, also when the retries end during a wait (the breaker
// opened): the body of a response followed by a wait is read into memory before it (up to
// 64 KiB) to free the connection. Otherwise it returns retry.Do's error, which tells why it
// stopped.
package retryhttp

import (
	"context"
	"crypto/rand"
	"io"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/idemlint/idemlint/runtime/retry"
)

// Transport is an http.RoundTripper that retries under a policy. It is safe for
// concurrent use; its fields must not change once it is in use.
type Transport struct {
	// Base sends each attempt; nil means http.DefaultTransport.
	Base http.RoundTripper
	// Policy is the retry policy. Its Timeout and AttemptTimeout also bound the reading
	// of the returned response's body: they end when the body is closed.
	Policy retry.Policy
	// IdempotencyKeys makes the transport add an Idempotency-Key header to POST and PATCH
	// requests that have none: one key per request, reused by every attempt.
	IdempotencyKeys bool
	// NewKey makes the keys; nil means crypto/rand.Text (26 base32 characters, 130 bits).
	NewKey func() string
}

// drainLimit is how much of a failed attempt's body is read so that its connection
// can be reused; past that, the connection is closed instead.
const drainLimit = 64 << 10

// RoundTrip sends req under the policy. It never modifies req.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := t.Policy.Validate(); err != nil { // before the timeouts are taken out of it
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	x := exchanges.Get().(*exchange)
	defer x.recycle()
	x.base, x.req = t.Base, req
	if x.base == nil {
		x.base = http.DefaultTransport
	}
	if t.IdempotencyKeys && (req.Method == http.MethodPost || req.Method == http.MethodPatch) &&
		!retry.HasIdempotencyKey(req.Header) {
		x.req = req.Clone(req.Context())
		x.req.Header.Set(retry.IdempotencyKeyHeader, t.newKey())
	}

	p := t.Policy
	if req.Body != nil && req.Body != http.NoBody && req.GetBody == nil {
		p.MaxAttempts = 1 // the body cannot be sent twice
	}
	// The response body outlives the attempt: the transport owns the timeouts, and ends
	// them when the caller closes the body.
	ctx := req.Context()
	var overallCancel context.CancelFunc
	if p.Timeout > 0 {
		ctx, overallCancel = context.WithTimeout(ctx, p.Timeout)
	}
	x.attemptTimeout = p.AttemptTimeout
	p.Timeout, p.AttemptTimeout = 0, 0
	x.onRetry, p.OnRetry = p.OnRetry, x.onRetryFn

	err := retry.Do(ctx, p, x.attemptFn)
	if !x.sent && req.Body != nil {
		req.Body.Close() // RoundTrip must close the body, even when nothing was sent
	}
	resp := x.last
	if resp != nil && resp.Body == &x.held {
		resp.Body = x.held.detach() // held through a wait that ended the retries
	}
	if resp == nil {
		x.cancelAttempt()
		if overallCancel != nil {
			overallCancel()
		}
		return nil, err
	}
	if overallCancel != nil || x.attemptCancel != nil {
		resp.Body = &cancelOnClose{ReadCloser: resp.Body, overall: overallCancel, attempt: x.attemptCancel}
	}
	return resp, nil
}

func (t *Transport) newKey() string {
	if t.NewKey != nil {
		return t.NewKey()
	}
	return rand.Text()
}

// exchange is one logical request and its attempts. Exchanges are recycled: the functions that
// retry.Do calls are made once per exchange.
type exchange struct {
	base           http.RoundTripper
	req            *http.Request // the caller's request, or a clone that carries the key
	attemptTimeout time.Duration
	onRetry        func(context.Context, retry.RetryInfo) // the policy's own hook
	sent           bool                                   // the original body went out with the first attempt
	last           *http.Response                         // the last attempt's response, if it got one
	held           heldBody                               // last's body while Do waits to retry
	attemptCancel  context.CancelFunc                     // the last attempt's

	attemptFn func(context.Context, retry.Attempt) error // x.attempt
	onRetryFn func(context.Context, retry.RetryInfo)     // x.beforeWait
}

var exchanges = sync.Pool{New: func() any {
	x := new(exchange)
	x.attemptFn, x.onRetryFn = x.attempt, x.beforeWait
	return x
}}

func (x *exchange) recycle() {
	attemptFn, onRetryFn, buf := x.attemptFn, x.onRetryFn, x.held.buf[:0]
	*x = exchange{attemptFn: attemptFn, onRetryFn: onRetryFn}
	x.held.buf = buf
	exchanges.Put(x)
}

func (x *exchange) attempt(ctx context.Context, a retry.Attempt) error {
	x.discard()
	if x.attemptTimeout > 0 {
		ctx, x.attemptCancel = context.WithTimeout(ctx, x.attemptTimeout)
	}
	r := x.req
	if a.Number > 1 || ctx != r.Context() { // the first attempt sends the request as it came
		r = r.WithContext(ctx)
	}
	if x.sent && x.req.GetBody != nil {
		body, err := x.req.GetBody()
		if err != nil {
			return retry.Permanent(err)
		}
		r.Body = body
	}
	x.sent = true
	resp, err := x.base.RoundTrip(r)
	if err == nil {
		x.last = resp
	}
	return retry.CheckHTTP(r, resp, err)
}

// beforeWait frees the failed attempt's connection before the wait, then calls the policy's hook.
func (x *exchange) beforeWait(ctx context.Context, r retry.RetryInfo) {
	x.hold()
	if x.onRetry != nil {
		x.onRetry(ctx, r)
	}
}

// hold reads the failed attempt's body into memory, up to drainLimit, and closes it, so that its
// connection is free during the wait; the response is kept with that copy as its body, since the
// wait may end the retries (the breaker opens, the context ends), and then it is the last one.
// A longer body keeps its unread rest, and its connection, until it is discarded.
func (x *exchange) hold() {
	if x.last == nil {
		x.cancelAttempt()
		return
	}
	b, body := &x.held, x.last.Body
	b.off, b.rest, b.err = 0, nil, nil
	for len(b.buf) < drainLimit {
		if len(b.buf) == cap(b.buf) {
			b.buf = slices.Grow(b.buf, min(max(cap(b.buf), 512), drainLimit-len(b.buf)))
		}
		n, err := body.Read(b.buf[len(b.buf):min(cap(b.buf), drainLimit)])
		b.buf = b.buf[:len(b.buf)+n]
		if err != nil {
			if err != io.EOF {
				b.err = err
			}
			break
		}
	}
	if b.err == nil && len(b.buf) == drainLimit {
		b.rest = body // the attempt's timeout goes on with it
	} else {
		_ = body.Close()
		x.cancelAttempt()
	}
	x.last.Body = b
}

// discard drains and closes the previous attempt's response and ends its timeout.
func (x *exchange) discard() {
	if x.last != nil {
		if x.last.Body == &x.held {
			_ = x.held.Close()
		} else {
			_, _ = io.CopyN(io.Discard, x.last.Body, drainLimit)
			_ = x.last.Body.Close()
		}
		x.last = nil
	}
	x.held = heldBody{buf: x.held.buf[:0]}
	x.cancelAttempt()
}

func (x *exchange) cancelAttempt() {
	if x.attemptCancel != nil {
		x.attemptCancel()
		x.attemptCancel = nil
	}
}

// heldBody is a failed attempt's body read into buf before a wait, then its unread rest, if any,
// and the error that ended the reading, if not EOF.
type heldBody struct {
	buf  []byte
	off  int
	rest io.ReadCloser
	err  error
}

func (b *heldBody) Read(p []byte) (int, error) {
	switch {
	case b.off < len(b.buf):
		n := copy(p, b.buf[b.off:])
		b.off += n
		return n, nil
	case b.rest != nil:
		return b.rest.Read(p)
	case b.err != nil:
		return 0, b.err
	}
	return 0, io.EOF
}

func (b *heldBody) Close() error {
	if b.rest != nil {
		return b.rest.Close()
	}
	return nil
}

// detach returns a copy of b that does not share the exchange's buffer.
func (b *heldBody) detach() *heldBody {
	return &heldBody{buf: slices.Clone(b.buf[b.off:]), rest: b.rest, err: b.err}
}

// cancelOnClose ends the request's timeouts when the caller closes the body.
type cancelOnClose struct {
	io.ReadCloser
	overall, attempt context.CancelFunc
}

func (b *cancelOnClose) Close() error {
	err := b.ReadCloser.Close()
	if b.attempt != nil {
		b.attempt()
	}
	if b.overall != nil {
		b.overall()
	}
	return err
}
