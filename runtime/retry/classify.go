package retry

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"reflect"
	"strings"
	"sync"
	"syscall"
)

// Permanent marks err as not worth retrying: Do stops at once, whatever the classifier
// says. Permanent(nil) is nil.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return &markedError{err: err}
}

// Transient marks err as worth retrying: the default classifier retries it even when it
// would not on its own (an unkeyed POST included: the caller vouches for it).
// Transient(nil) is nil. The outermost mark wins.
func Transient(err error) error {
	if err == nil {
		return nil
	}
	return &markedError{err: err, transient: true}
}

type markedError struct {
	err       error
	transient bool
}

func (e *markedError) Error() string { return e.err.Error() }
func (e *markedError) Unwrap() error { return e.err }

// Is makes a Permanent error match ErrPermanent.
func (e *markedError) Is(target error) bool { return !e.transient && target == ErrPermanent }

// IsRetryable is the default classifier. It reports whether err is transient (see [IsTransient])
// and the failed operation safe to repeat. An operation may be repeated when the error proves
// that the request never left (a dial error, a DNS failure, a refused connection, a proxy that
// could not connect, a TLS handshake that failed or timed out, an HTTP/2 stream the server
// refused with REFUSED_STREAM), or when it is an HTTP request
// whose method is idempotent (GET, HEAD, OPTIONS, TRACE, PUT, DELETE) or that carried an
// Idempotency-Key. Any other operation (a POST without a key, a database write, a gRPC call, an
// unknown call) may have taken effect before it failed: a reset connection, a timeout or an
// unexpected EOF does not say, so it is not repeated. Declare such an operation idempotent
// ([Policy].Idempotent) or mark the error [Transient] to have it retried.
//
// A bare *url.Error from an http.Client POST is taken as unkeyed; return [CheckHTTP]'s error to
// tell the classifier about the key.
func IsRetryable(err error) bool {
	f := examine(err)
	if f.mark != 0 {
		return f.mark > 0
	}
	return f.transient() && (f.safe || f.unsent)
}

// IsTransient reports whether err is a transient failure of the dependency, whether or not
// the operation may be repeated: connection refused, reset or aborted, DNS failures,
// timeouts (net.Error, context.DeadlineExceeded of an attempt), HTTP/2 streams reset by the
// server (INTERNAL_ERROR, CANCEL, ENHANCE_YOUR_CALM, REFUSED_STREAM) and connections closed after
// GOAWAY (net/http's errors), HTTP 408, 429, 502, 503 and
// 504 ([HTTPError]), an HTTP 409 that carries Retry-After (an idempotency key still in
// progress, as runtime/idempotency answers it), gRPC UNAVAILABLE and RESOURCE_EXHAUSTED (any
// error with a GRPCStatus method, without importing gRPC), and errors marked [Transient]. Never
// transient: context.Canceled, other 4xx and 5xx statuses, other gRPC codes, TLS certificate
// errors, errors marked [Permanent], and anything unknown.
func IsTransient(err error) bool {
	f := examine(err)
	if f.mark != 0 {
		return f.mark > 0
	}
	return f.transient()
}

// IsFailure reports whether err is a failure of the dependency, as a [Breaker] counts it by
// default: any error except the caller's cancellation and answers that blame the request itself
// (an HTTP 4xx other than 408 and 429; gRPC CANCELLED, INVALID_ARGUMENT, NOT_FOUND,
// ALREADY_EXISTS, PERMISSION_DENIED, FAILED_PRECONDITION, ABORTED, OUT_OF_RANGE, UNIMPLEMENTED,
// UNAUTHENTICATED). Server errors, unknown errors and timeouts all count, retryable or not.
func IsFailure(err error) bool {
	if err == nil {
		return false
	}
	f := examine(err)
	switch {
	case f.canceled:
		return false
	case f.status != 0:
		return f.status >= 500 || f.status < 400 || f.status == http.StatusRequestTimeout || f.status == http.StatusTooManyRequests
	case f.grpc >= 0:
		switch f.grpc {
		case 1, 3, 5, 6, 7, 9, 10, 11, 12, 16:
			return false
		}
	}
	return true
}

// markedPermanent reports whether the outermost mark on err is Permanent.
func markedPermanent(err error) bool { return examine(err).mark < 0 }

// facts is what one walk over an error tree found. Outer errors come first.
type facts struct {
	mark       int  // +1 Transient, -1 Permanent, 0 unmarked (outermost mark)
	canceled   bool // context.Canceled
	cert       bool // TLS certificate error
	status     int  // HTTP status (outermost HTTPError), 0 if none
	retryAfter bool // the outermost HTTPError's response carries Retry-After
	grpc       int  // gRPC code, -1 if none
	method     bool // a request was seen (HTTPError or url.Error)
	safe       bool // the outermost request seen may be repeated: idempotent method, or keyed
	unsent     bool // failed before the request left: dial, DNS, refused, proxy, TLS handshake
	netFault   bool // timeout, connection refused/reset, DNS failure, unexpected EOF
}

func (f *facts) transient() bool {
	switch {
	case f.canceled || f.cert:
		return false
	case f.status != 0:
		return transientStatus(f.status) || f.status == http.StatusConflict && f.retryAfter
	case f.grpc >= 0:
		return f.grpc == grpcUnavailable || f.grpc == grpcResourceExhausted
	}
	return f.netFault
}

// gRPC codes (google.golang.org/grpc/codes), so that no gRPC import is needed.
const (
	grpcResourceExhausted = 8
	grpcUnavailable       = 14
)

func transientStatus(code int) bool {
	switch code {
	case http.StatusRequestTimeout, http.StatusTooManyRequests, http.StatusBadGateway,
		http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

func examine(err error) facts {
	f := facts{grpc: -1}
	f.walk(err, 0)
	return f
}

// walk visits err and what it wraps, depth first, outer errors first.
func (f *facts) walk(err error, depth int) {
	if err == nil || depth > 100 {
		return
	}
	f.visit(err)
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		f.walk(u.Unwrap(), depth+1)
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			f.walk(e, depth+1)
		}
	}
}

func (f *facts) visit(err error) {
	switch e := err.(type) {
	case *markedError:
		if f.mark == 0 {
			f.mark = -1
			if e.transient {
				f.mark = 1
			}
		}
	case *HTTPError:
		if f.status == 0 {
			f.status = e.StatusCode
			f.retryAfter = e.Header.Get("Retry-After") != ""
		}
		f.request(e.Method, e.Keyed)
	case *url.Error:
		f.request(e.Op, false) // net/http spells the method "Post", "Patch": see request
	case *net.OpError:
		if e.Op == "dial" || e.Op == "proxyconnect" {
			f.unsent = true
		}
	case *net.DNSError:
		f.netFault, f.unsent = true, true
	case tls.RecordHeaderError, *tls.RecordHeaderError, tls.AlertError:
		f.unsent = true // the TLS handshake failed: no request was written
	case *tls.CertificateVerificationError, x509.UnknownAuthorityError, x509.HostnameError,
		x509.CertificateInvalidError, *x509.UnknownAuthorityError, *x509.HostnameError,
		*x509.CertificateInvalidError:
		f.cert = true
	case syscall.Errno:
		switch e {
		case syscall.ECONNREFUSED:
			f.netFault, f.unsent = true, true
		case syscall.ECONNRESET, syscall.ECONNABORTED, syscall.EPIPE, syscall.ETIMEDOUT:
			f.netFault = true
		}
	}
	switch {
	case is(err, context.Canceled):
		f.canceled = true
	case is(err, context.DeadlineExceeded), is(err, os.ErrDeadlineExceeded),
		is(err, io.ErrUnexpectedEOF), err == io.EOF && f.method:
		f.netFault = true
	}
	if t, ok := err.(interface{ Timeout() bool }); ok && t.Timeout() {
		f.netFault = true
		if err.Error() == tlsHandshakeTimeout {
			f.unsent = true
		}
	}
	if f.grpc < 0 {
		f.grpc = grpcCode(err)
	}
	f.http2(err)
}

// HTTP/2 error codes (RFC 9113, section 7) that say the peer, not the request, failed.
const (
	h2InternalError   = 0x2
	h2RefusedStream   = 0x7
	h2Cancel          = 0x8
	h2EnhanceYourCalm = 0xb
)

// http2 records what net/http's HTTP/2 errors say (their types are unexported, hence reflection):
// a stream the server reset with INTERNAL_ERROR, CANCEL or ENHANCE_YOUR_CALM, or a connection
// closed after GOAWAY, is the HTTP/2 form of a dropped connection (the request may have been
// processed); REFUSED_STREAM says that it was not processed at all. Other codes (a protocol
// error, HTTP_1_1_REQUIRED, ...) are not transient.
func (f *facts) http2(err error) {
	v := reflect.ValueOf(err)
	t := v.Type()
	if t.Kind() != reflect.Struct || t.PkgPath() != "net/http" {
		return
	}
	switch t.Name() {
	case "http2StreamError":
		switch code := v.FieldByName("Code"); {
		case !code.CanUint():
		case code.Uint() == h2RefusedStream:
			f.netFault, f.unsent = true, true
		case code.Uint() == h2InternalError, code.Uint() == h2Cancel, code.Uint() == h2EnhanceYourCalm:
			f.netFault = true
		}
	case "http2GoAwayError":
		f.netFault = true
	}
}

// tlsHandshakeTimeout is the message of net/http's (unexported) error for a TLS handshake that
// timed out: no request was written.
const tlsHandshakeTimeout = "net/http: TLS handshake timeout"

// request records the outermost request seen; method is in any case.
func (f *facts) request(method string, keyed bool) {
	if f.method {
		return
	}
	f.method = true
	f.safe = keyed || idempotentMethod(method)
}

// idempotentMethod reports whether method is idempotent by definition (RFC 9110, 9.2.2).
func idempotentMethod(method string) bool {
	for _, m := range [...]string{http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace,
		http.MethodPut, http.MethodDelete} {
		if strings.EqualFold(method, m) {
			return true
		}
	}
	return false
}

// is reports whether err itself (not what it wraps) is target.
func is(err, target error) bool {
	if err == target {
		return true
	}
	x, ok := err.(interface{ Is(error) bool })
	return ok && x.Is(target)
}

// grpcCode returns the code of an error with a GRPCStatus() *status.Status method, as the
// gRPC status package defines it, or -1. It uses reflection so as not to import gRPC, and
// remembers which types have no such method, so that other errors cost a map lookup.
func grpcCode(err error) int {
	t := reflect.TypeOf(err)
	if _, none := noGRPCStatus.Load(t); none {
		return -1
	}
	m := reflect.ValueOf(err).MethodByName("GRPCStatus")
	if !m.IsValid() || m.Type().NumIn() != 0 || m.Type().NumOut() != 1 {
		noGRPCStatus.Store(t, struct{}{})
		return -1
	}
	st := m.Call(nil)[0]
	if st.Kind() == reflect.Pointer && st.IsNil() {
		return -1
	}
	c := st.MethodByName("Code")
	if !c.IsValid() || c.Type().NumIn() != 0 || c.Type().NumOut() != 1 {
		return -1
	}
	code := c.Call(nil)[0]
	switch code.Kind() {
	case reflect.Uint32, reflect.Uint, reflect.Uint64:
		return int(code.Uint())
	case reflect.Int32, reflect.Int, reflect.Int64:
		return int(code.Int())
	}
	return -1
}

// noGRPCStatus holds the error types without a GRPCStatus method (a set of reflect.Type).
var noGRPCStatus sync.Map
