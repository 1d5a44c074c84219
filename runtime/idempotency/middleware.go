package idempotency

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/idemlint/idemlint/runtime/internal/keyheader"
)

// DefaultMaxBodyBytes is the default cap on keyed request bodies (1 MiB).
const DefaultMaxBodyBytes = 1 << 20

// Config configures Middleware.
type Config struct {
	// Runner holds the store and the policy (lease, retention, what is stored, ...). Runner.Store
	// is required.
	Runner

	// Tenant returns the scope of the request's key: the tenant, account or user on whose behalf
	// the request is made. Required. Keys are only ever looked up within their scope, so one
	// tenant can never receive another tenant's stored response. An error, or a scope that
	// ValidateScope rejects (empty, not UTF-8 text, control characters, too long), rejects the
	// request with 400; single-tenant services return a constant.
	Tenant func(r *http.Request) (string, error)

	// Header is the request header that carries the key. Default "Idempotency-Key", and then
	// "X-Idempotency-Key" is read too (the names that runtime/retry's client, like net/http's
	// transport, takes for a key); both at once must hold the same key. A Header set here is
	// the only one read.
	Header string
	// Methods are the keyed methods, matched without regard to case (as the fingerprint does).
	// Default POST and PATCH. Other methods pass through.
	Methods []string
	// Optional lets keyed methods without a key pass through unprotected. By default a missing
	// key is rejected with 400.
	Optional bool
	// MaxBodyBytes caps the request body of keyed requests (413 above it). Default
	// DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// Route returns the route part of the fingerprint. Default: the escaped path plus the query
	// with its parameters sorted. (Not the ServeMux pattern: two different resources on one
	// pattern must not share a key.)
	Route func(r *http.Request) string
}

// Middleware returns net/http middleware that makes keyed requests idempotent:
//
//	new key                              -> the handler runs; a final outcome is stored
//	same key, same request, completed    -> the stored status, representation headers and body,
//	                                        with Idempotent-Replayed: true; the handler does not run
//	same key, same request, in progress  -> 409 Conflict, with Retry-After: 1
//	same key, different request          -> 422 Unprocessable Content
//	key missing (when required), invalid -> 400 Bad Request
//	tenant empty or malformed            -> 400 Bad Request
//	body over MaxBodyBytes               -> 413 Content Too Large
//	store unavailable                    -> 503 Service Unavailable, with Retry-After; the key is not consumed
//
// Error responses are application/problem+json (see Problem). The handler's response is buffered
// (it cannot stream) and written once the outcome is settled. Only final outcomes are stored (see
// Runner.Storable): after a 5xx, a 429, a panic, or a 4xx before execution started (see
// MarkStarted) the key is released and a retry runs the handler again. A panic is re-raised after
// the release, so that the server's or an outer middleware's recovery handles it as usual. The
// handler's context is not cancelled when the client goes away: the work runs to its outcome,
// which is stored, and the client's retry receives it.
//
// The request's context carries the operation: handlers use Step, DerivedKey and CurrentTx.
// Middleware panics, when it is built, with the error of Config.Validate (call it first to handle
// the error yourself).
func Middleware(cfg Config) func(http.Handler) http.Handler {
	if err := cfg.Validate(); err != nil {
		panic(err)
	}
	m := &middleware{cfg: cfg, header: cfg.Header, maxBody: cfg.MaxBodyBytes, route: cfg.Route}
	if m.header == "" {
		m.header, m.alt = keyheader.Name, keyheader.Alt
	}
	m.header = http.CanonicalHeaderKey(m.header)
	if m.maxBody <= 0 {
		m.maxBody = DefaultMaxBodyBytes
	}
	if m.route == nil {
		m.route = defaultRoute
	}
	methods := cfg.Methods
	if methods == nil {
		methods = []string{http.MethodPost, http.MethodPatch}
	}
	for _, meth := range methods {
		m.methods = append(m.methods, strings.ToUpper(meth))
	}
	return func(next http.Handler) http.Handler {
		return &handler{m: m, next: next}
	}
}

// Validate reports the first problem of the configuration, as an error wrapping
// ErrInvalidConfig: the Runner's (see Runner.Validate), or no Tenant function.
func (c *Config) Validate() error {
	if err := c.Runner.Validate(); err != nil {
		return err
	}
	if c.Tenant == nil {
		return fmt.Errorf("%w: Config.Tenant is nil: keys must be scoped per tenant", ErrInvalidConfig)
	}
	return nil
}

type middleware struct {
	cfg     Config
	header  string
	alt     string // the other name read, if any
	methods []string
	maxBody int64
	route   func(*http.Request) string
}

type handler struct {
	m    *middleware
	next http.Handler
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m := h.m
	if !slices.ContainsFunc(m.methods, func(meth string) bool { return strings.EqualFold(meth, r.Method) }) {
		h.next.ServeHTTP(w, r)
		return
	}
	values := r.Header[m.header] // canonical: no lookup of another spelling
	if m.alt != "" {
		if alt := r.Header[m.alt]; len(alt) > 0 {
			if len(values) == 0 {
				values = alt
			} else if len(values) > 1 || len(alt) > 1 || values[0] != alt[0] {
				WriteProblem(w, Problem{Status: http.StatusBadRequest, Code: CodeKeyInvalid,
					Detail: fmt.Sprintf("send one key: the %s and %s headers differ", m.header, m.alt)})
				return
			}
		}
	}

	switch len(values) {
	case 0:
		if m.cfg.Optional {
			h.next.ServeHTTP(w, r)
			return
		}
		WriteProblem(w, Problem{Status: http.StatusBadRequest, Code: CodeKeyMissing,
			Detail: fmt.Sprintf("%s %s requires an %s header: generate one unique key per operation (for example a UUID) and send the same key with every retry", r.Method, r.URL.Path, m.header)})
		return
	case 1:
	default:
		WriteProblem(w, Problem{Status: http.StatusBadRequest, Code: CodeKeyInvalid,
			Detail: fmt.Sprintf("send exactly one %s header, not %d", m.header, len(values))})
		return
	}
	key, err := ParseKey(values[0])
	if err != nil {
		WriteProblem(w, Problem{Status: http.StatusBadRequest, Code: CodeKeyInvalid, Detail: err.Error()})
		return
	}
	scope, err := m.cfg.Tenant(r)
	if err == nil && scope == "" {
		err = errors.New("the request names no tenant")
	}
	if err == nil {
		err = ValidateScope(scope)
	}
	if err != nil {
		WriteProblem(w, Problem{Status: http.StatusBadRequest, Code: CodeTenantInvalid, Detail: err.Error()})
		return
	}

	x := exchanges.Get().(*exchange)
	body, ok := m.readBody(w, r, x.buf[:0])
	if !ok {
		x.recycle()
		return
	}
	x.buf = body
	fp := Fingerprint(r.Method, m.route(r), body)
	x.next, x.r = h.next, r
	x.body.Reset(body)
	x.rec.limit = m.cfg.Runner.maxResponseBytes()
	// The work is not cancelled when the client goes away (an attempt timeout, a dropped
	// connection): it runs to its outcome, which is stored, and the client's retry receives it
	// (a 409 while it still runs) instead of running the work again. The configuration was
	// validated when the middleware was built, the key by ParseKey and the scope above.
	out, err := m.cfg.Runner.claim(r.Context(), scope, key, fp, x.run, true)
	if err != nil {
		m.writeError(w, r, out, err)
	} else {
		writeResponse(w, out.Response, out.Replayed)
	}
	x.recycle()
}

// exchange is the work of one keyed request: its buffered body and the reader of it, and the
// recorder of its response. Exchanges are recycled once the response is written: a handler must
// not use its ResponseWriter or read its request's body after it returns (net/http's rule), and
// nothing else keeps the body (the fingerprint is a digest of it). A panicking handler's exchange
// is dropped.
type exchange struct {
	next http.Handler
	r    *http.Request
	buf  []byte // the request's body
	body bodyReader
	rec  recorder
	run  Func // x.work, made once per exchange
}

var exchanges = sync.Pool{New: func() any {
	x := &exchange{rec: recorder{header: make(http.Header), sent: make(http.Header)}}
	x.run = x.work
	return x
}}

func (x *exchange) work(ctx context.Context) (Response, error) {
	r := x.r.WithContext(ctx)
	r.Body = &x.body
	x.next.ServeHTTP(&x.rec, r)
	if x.rec.tooLarge > 0 {
		return Response{}, &ResponseTooLargeError{Size: x.rec.tooLarge, Limit: x.rec.limit}
	}
	return x.rec.response(), nil
}

// recycle readies x for another request and puts it back in the pool.
func (x *exchange) recycle() {
	x.next, x.r = nil, nil
	x.body.Reset(nil)
	if cap(x.buf) > maxRecycledBody {
		x.buf = nil
	}
	x.rec.reset()
	exchanges.Put(x)
}

// bodyReader is a request body read from memory.
type bodyReader struct{ bytes.Reader }

func (*bodyReader) Close() error { return nil }

// readBody reads the request's body into buf (empty, its capacity reused), and returns it.
func (m *middleware) readBody(w http.ResponseWriter, r *http.Request, buf []byte) ([]byte, bool) {
	tooLarge := func() ([]byte, bool) {
		WriteProblem(w, Problem{Status: http.StatusRequestEntityTooLarge, Code: CodeBodyTooLarge,
			Detail: fmt.Sprintf("the request body is larger than %d bytes", m.maxBody)})
		return nil, false
	}
	unreadable := func(err error) ([]byte, bool) {
		WriteProblem(w, Problem{Status: http.StatusBadRequest, Code: CodeBodyUnreadable,
			Detail: "the request body could not be read: " + err.Error()})
		return nil, false
	}
	if r.ContentLength > m.maxBody {
		return tooLarge()
	}
	if r.Body == nil || r.Body == http.NoBody {
		return nil, true
	}
	if n := int(r.ContentLength); n > 0 { // its length is known: one exact buffer, and a byte to spare
		body := slices.Grow(buf, n+1)[:n]
		if _, err := io.ReadFull(r.Body, body); err != nil {
			return unreadable(err)
		}
		if k, _ := r.Body.Read(body[n : n+1]); k > 0 {
			return unreadable(errors.New("the body is longer than its Content-Length"))
		}
		return body, true
	}
	body, err := appendAll(buf, http.MaxBytesReader(w, r.Body, m.maxBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return tooLarge()
		}
		return unreadable(err)
	}
	return body, true
}

// appendAll is io.ReadAll appending to b.
func appendAll(b []byte, r io.Reader) ([]byte, error) {
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // grow
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

func (m *middleware) writeError(w http.ResponseWriter, r *http.Request, out Outcome, err error) {
	var inProgress *InProgressError
	var storeErr *StoreError
	switch {
	case errors.As(err, &inProgress):
		w.Header().Set("Retry-After", retryAfterSeconds(inProgress.RetryAfter))
		WriteProblem(w, Problem{Status: http.StatusConflict, Code: CodeKeyInProgress,
			Detail: "a request with this idempotency key is still being processed; retry after the Retry-After delay to receive its result"})
	case errors.Is(err, ErrMismatch):
		WriteProblem(w, Problem{Status: http.StatusUnprocessableEntity, Code: CodeKeyReused,
			Detail: "this idempotency key was already used for a different request (method, path or body differ); use a new key for a new operation"})
	case errors.Is(err, ErrFenced):
		w.Header().Set("Retry-After", "1")
		WriteProblem(w, Problem{Status: http.StatusConflict, Code: CodeKeyTakenOver,
			Detail: "another worker took over this request; retry with the same idempotency key to receive its result"})
	case errors.As(err, &storeErr):
		m.cfg.logger().WarnContext(r.Context(), "idempotency: store unavailable", "op", storeErr.Op, "err", storeErr.Err)
		detail := "the idempotency store is unavailable; the request was not processed; retry later with the same idempotency key"
		if storeErr.Op != "claim" {
			detail = "the idempotency store is unavailable; the result of the request could not be recorded; retry later with the same idempotency key"
		}
		w.Header().Set("Retry-After", "1")
		WriteProblem(w, Problem{Status: http.StatusServiceUnavailable, Code: CodeStoreUnavailable, Detail: detail})
	case errors.Is(err, ErrResponseTooLarge):
		m.cfg.logger().ErrorContext(r.Context(), "idempotency: response too large to store", "err", err)
		WriteProblem(w, Problem{Status: http.StatusInternalServerError, Code: CodeResponseTooLarge,
			Detail: "the response is too large to be stored for replay; it was not stored, and the request may be retried with the same idempotency key"})
	case r.Context().Err() != nil:
		// The client is gone (or the server is shutting down): nobody reads this.
		if out.Response.Status != 0 {
			writeResponse(w, out.Response, false)
			return
		}
		WriteProblem(w, Problem{Status: http.StatusServiceUnavailable, Detail: "the request was cancelled"})
	default:
		m.cfg.logger().ErrorContext(r.Context(), "idempotency: unexpected error", "err", err)
		WriteProblem(w, Problem{Status: http.StatusInternalServerError, Detail: "internal error"})
	}
}

func writeResponse(w http.ResponseWriter, resp Response, replayed bool) {
	h := w.Header()
	trailers := false
	for k, vs := range resp.Header {
		h[k] = vs // the response's values are not used after this
		trailers = trailers || strings.HasPrefix(k, http.TrailerPrefix)
	}
	// One array holds the values of both headers; each slice is capped, so that appending to one
	// never writes over the other.
	values := make([]string, 0, 2)
	if replayed {
		values = append(values, "true")
		h["Idempotent-Replayed"] = values[0:1:1]
		if _, ok := h["Content-Type"]; !ok {
			h["Content-Type"] = nil // none was recorded: none is sent, rather than a sniffed one
		}
	}
	if trailers && len(h["Trailer"]) == 0 {
		announceTrailers(h)
	}
	if bodyAllowed(resp.Status) && !trailers { // trailers need a chunked body on HTTP/1.1
		n := len(values)
		values = append(values, strconv.Itoa(len(resp.Body)))
		h["Content-Length"] = values[n : n+1 : n+1]
	} else {
		delete(h, "Content-Length")
	}
	w.WriteHeader(resp.Status)
	w.Write(resp.Body)
}

// announceTrailers sets the Trailer header to the names of h's trailers (a replay's: the
// announcement is not recorded).
func announceTrailers(h http.Header) {
	var names []string
	for k := range h {
		if name, ok := strings.CutPrefix(k, http.TrailerPrefix); ok {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	h["Trailer"] = []string{strings.Join(names, ", ")}
}

func bodyAllowed(status int) bool {
	return status >= 200 && status != http.StatusNoContent && status != http.StatusNotModified
}

// defaultRoute is the escaped path plus the query with its parameters sorted by name.
func defaultRoute(r *http.Request) string {
	p := r.URL.EscapedPath()
	if r.URL.RawQuery == "" {
		return p
	}
	if q, err := url.ParseQuery(r.URL.RawQuery); err == nil {
		return p + "?" + q.Encode()
	}
	return p + "?" + r.URL.RawQuery
}

// recorder buffers a handler's response.
type recorder struct {
	header  http.Header
	sent    http.Header // the header as of WriteHeader (its maps share the value slices)
	status  int
	body    bytes.Buffer
	written bool
	limit   int64 // on the body's bytes (MaxResponseBytes)
	// tooLarge is how many bytes the handler wrote past which the body outgrew limit; 0 if not.
	tooLarge int64
}

// maxRecycledBody is the largest response buffer a recycled recorder keeps.
const maxRecycledBody = 64 << 10

func (rec *recorder) reset() {
	clear(rec.header)
	clear(rec.sent)
	rec.status, rec.written, rec.tooLarge = 0, false, 0
	if rec.body.Cap() > maxRecycledBody {
		rec.body = bytes.Buffer{}
	}
	rec.body.Reset()
}

func (rec *recorder) Header() http.Header { return rec.header }

func (rec *recorder) WriteHeader(code int) {
	if code < 100 || code > 999 {
		panic(fmt.Sprintf("invalid WriteHeader code %v", code)) // as net/http does
	}
	if rec.written || code < 200 { // informational responses are not recorded
		return
	}
	rec.written = true
	rec.status = code
	for k, vs := range rec.header {
		rec.sent[k] = vs
	}
}

// Write buffers p, up to limit: a body that outgrows it is dropped, and this and every later
// Write fail with an error that matches ErrResponseTooLarge.
func (rec *recorder) Write(p []byte) (int, error) {
	if !rec.written {
		rec.WriteHeader(http.StatusOK)
	}
	if size := int64(rec.body.Len()) + int64(len(p)); rec.tooLarge > 0 || size > rec.limit {
		rec.tooLarge = max(rec.tooLarge, size)
		rec.body.Reset()
		return 0, &ResponseTooLargeError{Size: rec.tooLarge, Limit: rec.limit}
	}
	return rec.body.Write(p)
}

func (rec *recorder) response() Response {
	if !rec.written {
		rec.WriteHeader(http.StatusOK)
	}
	resp := Response{Status: rec.status, Header: rec.sent, Body: rec.body.Bytes()}
	rec.trailers(resp.Header)
	if _, ok := resp.Header["Content-Type"]; !ok && len(resp.Body) > 0 {
		// As net/http would; done here so that the stored Content-Type is explicit.
		resp.Header.Set("Content-Type", http.DetectContentType(resp.Body))
	}
	return resp
}

// trailers adds to h, the header as sent, the trailers that the handler set: the values it left
// under the names its Trailer header announced, and its http.TrailerPrefix keys. They are kept as
// TrailerPrefix keys (net/http's form for trailers, which a store keeps like any header), and an
// announced name is taken out of the header: it is a trailer.
func (rec *recorder) trailers(h http.Header) {
	announced := false
	for k, vs := range rec.header {
		if strings.HasPrefix(k, http.TrailerPrefix) {
			h[k] = vs
		}
		announced = announced || k == "Trailer"
	}
	if !announced {
		return
	}
	for _, v := range h["Trailer"] { // as sent
		for name := range strings.SplitSeq(v, ",") {
			name = http.CanonicalHeaderKey(strings.TrimSpace(name))
			if vs := rec.header[name]; len(vs) > 0 {
				h[http.TrailerPrefix+name] = vs
			}
			delete(h, name)
		}
	}
}
