package retry

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A stand-in for google.golang.org/grpc/status, with the same method shapes.
type fakeCode uint32
type fakeStatus struct{ code fakeCode }

func (s *fakeStatus) Code() fakeCode { return s.code }

type fakeGRPCError struct{ st *fakeStatus }

func (e *fakeGRPCError) Error() string           { return fmt.Sprintf("rpc error: code = %d", e.st.code) }
func (e *fakeGRPCError) GRPCStatus() *fakeStatus { return e.st }

func grpcErr(code fakeCode) error { return &fakeGRPCError{&fakeStatus{code}} }

type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

// handshakeTimeout is net/http's error for a TLS handshake that timed out (unexported there).
type handshakeTimeout struct{}

func (handshakeTimeout) Timeout() bool   { return true }
func (handshakeTimeout) Temporary() bool { return true }
func (handshakeTimeout) Error() string   { return "net/http: TLS handshake timeout" }

func dialErr(inner error) error {
	return &net.OpError{Op: "dial", Net: "tcp", Err: inner}
}

func readErr(inner error) error {
	return &net.OpError{Op: "read", Net: "tcp", Err: inner}
}

func urlErr(method string, inner error) error {
	return &url.Error{Op: method, URL: "http://example.test/x", Err: inner}
}

func TestClassify(t *testing.T) {
	boom := errors.New("boom")
	cases := []struct {
		name                 string
		err                  error
		transient, retryable bool
	}{
		{"unknown error", boom, false, false},
		// Transient, and the request never left: retried whatever the operation.
		{"connection refused", &os.SyscallError{Syscall: "connect", Err: syscall.ECONNREFUSED}, true, true},
		{"dns failure", &net.DNSError{Err: "no such host", Name: "x.test", IsNotFound: true}, true, true},
		{"dial reset", dialErr(syscall.ECONNRESET), true, true},
		{"dial timeout", dialErr(timeoutError{}), true, true},
		{"proxy connect refused", &net.OpError{Op: "proxyconnect", Net: "tcp", Err: syscall.ECONNREFUSED}, true, true},
		{"tls handshake timeout", urlErr("Post", handshakeTimeout{}), true, true},
		{"tls handshake timeout of an unkeyed POST", &HTTPError{Method: "POST", Err: urlErr("Post", handshakeTimeout{})}, true, true},
		// Transient, but the request may have arrived (issue 18.3): an operation that is not
		// known to be safe to repeat (a database insert that may have committed) is not retried.
		{"connection reset of an unknown operation", readErr(&os.SyscallError{Syscall: "read", Err: syscall.ECONNRESET}), true, false},
		{"write reset of an unknown operation", &net.OpError{Op: "write", Net: "tcp", Err: syscall.ECONNRESET}, true, false},
		{"connection aborted", syscall.ECONNABORTED, true, false},
		{"broken pipe", syscall.EPIPE, true, false},
		{"other errno", syscall.EACCES, false, false},
		{"net.Error timeout", timeoutError{}, true, false},
		{"os deadline", fmt.Errorf("read: %w", os.ErrDeadlineExceeded), true, false},
		{"attempt context deadline", context.DeadlineExceeded, true, false},
		{"context canceled", context.Canceled, false, false},
		{"canceled wins over timeout", fmt.Errorf("%w: %w", timeoutError{}, context.Canceled), false, false},
		{"unexpected EOF", io.ErrUnexpectedEOF, true, false},
		{"bare EOF is no network fault", io.EOF, false, false},
		{"tls record header (not a TLS server)", urlErr("Get", tls.RecordHeaderError{Msg: "first record does not look like a TLS handshake"}), false, false},
		// HTTP: the method or the key says whether the request may be repeated.
		{"EOF from an http.Client GET", urlErr("Get", io.EOF), true, true},
		{"http 408", &HTTPError{Method: "GET", StatusCode: 408}, true, true},
		{"http 429", &HTTPError{Method: "GET", StatusCode: 429}, true, true},
		{"http 502", &HTTPError{Method: "GET", StatusCode: 502}, true, true},
		{"http 503", &HTTPError{Method: "PUT", StatusCode: 503}, true, true},
		{"http 504", &HTTPError{Method: "DELETE", StatusCode: 504}, true, true},
		{"http 503 HEAD", &HTTPError{Method: "HEAD", StatusCode: 503}, true, true},
		{"http 503 of a method not known to be idempotent", &HTTPError{Method: "PURGE", StatusCode: 503}, true, false},
		{"http 503 without a method", &HTTPError{StatusCode: 503}, true, false},
		{"http 500", &HTTPError{Method: "GET", StatusCode: 500}, false, false},
		{"http 501", &HTTPError{Method: "GET", StatusCode: 501}, false, false},
		{"http 400", &HTTPError{Method: "GET", StatusCode: 400}, false, false},
		{"http 401", &HTTPError{Method: "GET", StatusCode: 401}, false, false},
		{"http 403", &HTTPError{Method: "GET", StatusCode: 403}, false, false},
		{"http 404", &HTTPError{Method: "GET", StatusCode: 404}, false, false},
		{"http 409", &HTTPError{Method: "GET", StatusCode: 409}, false, false},
		{"http 422", &HTTPError{Method: "GET", StatusCode: 422}, false, false},
		// Issue 18.5: a 409 that asks to come back (Retry-After) is a key still in progress.
		{"keyed POST 409 with Retry-After", &HTTPError{Method: "POST", Keyed: true, StatusCode: 409, Header: http.Header{"Retry-After": {"1"}}}, true, true},
		{"unkeyed POST 409 with Retry-After", &HTTPError{Method: "POST", StatusCode: 409, Header: http.Header{"Retry-After": {"1"}}}, true, false},
		{"keyed POST 409 without Retry-After", &HTTPError{Method: "POST", Keyed: true, StatusCode: 409}, false, false},
		{"status wins over a wrapped timeout", &HTTPError{Method: "GET", StatusCode: 404, Err: timeoutError{}}, false, false},
		{"unkeyed POST 503", &HTTPError{Method: "POST", StatusCode: 503}, true, false},
		{"unkeyed PATCH 429", &HTTPError{Method: "PATCH", StatusCode: 429}, true, false},
		{"keyed POST 503", &HTTPError{Method: "POST", Keyed: true, StatusCode: 503}, true, true},
		{"keyed POST 400", &HTTPError{Method: "POST", Keyed: true, StatusCode: 400}, false, false},
		{"unkeyed POST reset", &HTTPError{Method: "POST", Err: urlErr("Post", readErr(syscall.ECONNRESET))}, true, false},
		{"unkeyed POST timeout", &HTTPError{Method: "post", Err: urlErr("Post", timeoutError{})}, true, false},
		{"unkeyed POST dial refused", &HTTPError{Method: "POST", Err: urlErr("Post", dialErr(syscall.ECONNREFUSED))}, true, true},
		{"keyed POST reset", &HTTPError{Method: "POST", Keyed: true, Err: urlErr("Post", readErr(syscall.ECONNRESET))}, true, true},
		{"bare url.Error POST reset is taken as unkeyed", urlErr("Post", readErr(syscall.ECONNRESET)), true, false},
		{"bare url.Error POST dial", urlErr("Post", dialErr(&net.DNSError{Err: "timeout", IsTimeout: true})), true, true},
		{"bare url.Error PATCH timeout", urlErr("Patch", timeoutError{}), true, false},
		{"bare url.Error GET reset", urlErr("Get", readErr(syscall.ECONNRESET)), true, true},
		{"bare url.Error PUT timeout", urlErr("Put", timeoutError{}), true, true},
		// gRPC: no method to judge by; a caller declares the operation idempotent (Policy.Idempotent).
		{"grpc UNAVAILABLE", grpcErr(14), true, false},
		{"grpc RESOURCE_EXHAUSTED", fmt.Errorf("call: %w", grpcErr(8)), true, false},
		{"grpc INVALID_ARGUMENT", grpcErr(3), false, false},
		{"grpc PERMISSION_DENIED", grpcErr(7), false, false},
		{"grpc FAILED_PRECONDITION", grpcErr(9), false, false},
		{"grpc nil status", &fakeGRPCError{}, false, false},
		{"tls unknown authority", urlErr("Get", &tls.CertificateVerificationError{Err: x509.UnknownAuthorityError{}}), false, false},
		{"x509 hostname", x509.HostnameError{Host: "x.test"}, false, false},
		{"a certificate error wins over a timeout", fmt.Errorf("%w: %w", &tls.CertificateVerificationError{}, timeoutError{}), false, false},
		{"x509 invalid", fmt.Errorf("handshake: %w", x509.CertificateInvalidError{Reason: x509.Expired}), false, false},
		{"permanent wins", Permanent(syscall.ECONNREFUSED), false, false},
		{"transient wins", Transient(boom), true, true},
		{"transient mark vouches for an unkeyed POST", Transient(&HTTPError{Method: "POST", StatusCode: 503}), true, true},
		{"outermost mark wins: permanent", Permanent(Transient(boom)), false, false},
		{"outermost mark wins: transient", fmt.Errorf("x: %w", Transient(Permanent(boom))), true, true},
		{"mark inside a join", errors.Join(boom, Permanent(syscall.ECONNRESET)), false, false},
		{"transient inside a join", errors.Join(boom, syscall.ECONNRESET), true, false},
		{"nil", nil, false, false},
	}
	for _, c := range cases {
		assert.Equal(t, c.transient, IsTransient(c.err), "IsTransient: %s", c.name)
		assert.Equal(t, c.retryable, IsRetryable(c.err), "IsRetryable: %s", c.name)
	}
}

func TestMarks(t *testing.T) {
	assert.NoError(t, Permanent(nil))
	assert.NoError(t, Transient(nil))
	boom := errors.New("boom")
	p := Permanent(boom)
	assert.Equal(t, "boom", p.Error())
	assert.ErrorIs(t, p, boom)
	assert.ErrorIs(t, p, ErrPermanent)
	assert.NotErrorIs(t, Transient(boom), ErrPermanent)
	assert.ErrorIs(t, Transient(boom), boom)
}

func TestCheckHTTP(t *testing.T) {
	req, _ := http.NewRequest("POST", "http://example.test", nil)
	assert.NoError(t, CheckHTTP(req, &http.Response{StatusCode: 200}, nil))
	assert.NoError(t, CheckHTTP(req, &http.Response{StatusCode: 304}, nil))

	h := http.Header{"Retry-After": {"3"}}
	err := CheckHTTP(req, &http.Response{StatusCode: 503, Header: h}, nil)
	var he *HTTPError
	if assert.ErrorAs(t, err, &he) {
		assert.Equal(t, &HTTPError{Method: "POST", StatusCode: 503, Header: h}, he)
		assert.Equal(t, "http POST: 503 Service Unavailable", he.Error())
	}
	assert.False(t, IsRetryable(err), "unkeyed POST")

	req.Header.Set("Idempotency-Key", "k1")
	assert.True(t, IsRetryable(CheckHTTP(req, &http.Response{StatusCode: 503}, nil)), "keyed POST")
	req.Header.Del("Idempotency-Key")
	req.Header.Set("X-Idempotency-Key", "k1")
	assert.True(t, IsRetryable(CheckHTTP(req, &http.Response{StatusCode: 503}, nil)), "X-Idempotency-Key counts")
	req.Header.Set("X-Idempotency-Key", "")
	assert.False(t, IsRetryable(CheckHTTP(req, &http.Response{StatusCode: 503}, nil)), "an empty key is no key")

	sent := urlErr("Post", readErr(syscall.ECONNRESET))
	err = CheckHTTP(req, nil, sent)
	assert.ErrorIs(t, err, syscall.ECONNRESET)
	assert.Contains(t, err.Error(), "http POST: Post")
	assert.False(t, IsRetryable(err))

	err = CheckHTTP(nil, nil, syscall.ECONNRESET)
	assert.False(t, IsRetryable(err), "no request known: it may have arrived, and nothing says it may be repeated")
	assert.True(t, IsTransient(err))
}

// IsFailure decides what a Breaker counts (issue 18.6): every failure of the dependency, but not
// answers that blame the request, nor the caller giving up.
func TestIsFailure(t *testing.T) {
	for _, err := range []error{
		errors.New("unknown"), &HTTPError{Method: "GET", StatusCode: 500}, &HTTPError{Method: "POST", StatusCode: 503},
		&HTTPError{Method: "GET", StatusCode: 429}, &HTTPError{Method: "GET", StatusCode: 408},
		context.DeadlineExceeded, fmt.Errorf("query: %w", os.ErrDeadlineExceeded), syscall.ECONNRESET,
		grpcErr(14), grpcErr(13), grpcErr(2), Permanent(errors.New("decode")),
	} {
		assert.True(t, IsFailure(err), "%v", err)
	}
	for _, err := range []error{
		nil, context.Canceled, fmt.Errorf("call: %w", context.Canceled), &HTTPError{Method: "GET", StatusCode: 404},
		&HTTPError{Method: "POST", StatusCode: 422}, &HTTPError{Method: "GET", StatusCode: 409}, grpcErr(5), grpcErr(3), grpcErr(1),
	} {
		assert.False(t, IsFailure(err), "%v", err)
	}
}
