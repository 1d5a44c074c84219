package retryhttp_test

import (
	"bytes"
	"crypto/tls"
	"encoding/binary"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/idemlint/idemlint/runtime/retry"
	"github.com/idemlint/idemlint/runtime/retry/retryhttp"
)

// h2Server starts net/http's HTTP/2 server on loopback with TLS.
func h2Server(t *testing.T, h http.Handler) *httptest.Server {
	srv := httptest.NewUnstartedServer(h)
	srv.EnableHTTP2 = true
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv
}

func fastPolicy() retry.Policy {
	return retry.Policy{BaseDelay: time.Nanosecond, MaxAttempts: 3}
}

// A stream that the server resets (RST_STREAM INTERNAL_ERROR: the handler crashed) is the HTTP/2
// form of a dropped HTTP/1.1 connection: an idempotent request is retried, an unkeyed POST is not.
func TestHTTP2StreamResetIsRetriedWhenSafe(t *testing.T) {
	var calls atomic.Int32
	srv := h2Server(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			panic(http.ErrAbortHandler) // HTTP/2: RST_STREAM with INTERNAL_ERROR
		}
		io.WriteString(w, "ok")
	}))
	client := &http.Client{Transport: &retryhttp.Transport{Base: srv.Client().Transport, Policy: fastPolicy()}}

	resp, err := client.Get(srv.URL)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, "HTTP/2.0", resp.Proto)
	assert.Equal(t, "ok", string(body))
	assert.EqualValues(t, 2, calls.Load(), "the reset GET is retried")

	calls.Store(0)
	_, err = client.Post(srv.URL, "text/plain", strings.NewReader("x"))
	require.Error(t, err)
	assert.EqualValues(t, 1, calls.Load(), "an unkeyed POST may have been processed: not retried")
}

// rawH2 is a minimal HTTP/2 server on loopback that answers each request stream (each HEADERS
// frame) with what answer writes: enough to send the frames that net/http's server never sends
// on its own. n counts the requests, from 1.
func rawH2(t *testing.T, answer func(n int, w io.Writer, stream uint32) (closeConn bool)) *http.Client {
	tmpl := h2Server(t, http.NotFoundHandler()) // for its certificate and a client that trusts it
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: tmpl.TLS.Certificates, NextProtos: []string{"h2"}})
	require.NoError(t, err)
	t.Cleanup(func() { ln.Close() })
	var requests atomic.Int32
	var wg sync.WaitGroup
	var mu sync.Mutex
	var conns []net.Conn
	t.Cleanup(func() {
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			wg.Go(func() {
				defer c.Close()
				c.SetDeadline(time.Now().Add(10 * time.Second))
				preface := make([]byte, len(http2Preface))
				if _, err := io.ReadFull(c, preface); err != nil {
					return
				}
				c.Write(h2Frame(0x4, 0, 0, nil)) // SETTINGS
				for {
					var hdr [9]byte
					if _, err := io.ReadFull(c, hdr[:]); err != nil {
						return
					}
					payload := make([]byte, int(hdr[0])<<16|int(hdr[1])<<8|int(hdr[2]))
					if _, err := io.ReadFull(c, payload); err != nil {
						return
					}
					typ, flags, stream := hdr[3], hdr[4], binary.BigEndian.Uint32(hdr[5:])&0x7fffffff
					switch {
					case typ == 0x4 && flags&0x1 == 0: // SETTINGS: acknowledge
						c.Write(h2Frame(0x4, 0x1, 0, nil))
					case typ == 0x1: // HEADERS: a request
						if answer(int(requests.Add(1)), c, stream) {
							return
						}
					}
				}
			})
		}
	}()
	tr := tmpl.Client().Transport.(*http.Transport).Clone()
	tr.ForceAttemptHTTP2 = true
	base := &http.Client{Transport: tr}
	base.Transport = rewriteHost{tr, ln.Addr().String()}
	return base
}

const http2Preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"

// rewriteHost sends every request to addr.
type rewriteHost struct {
	http.RoundTripper
	addr string
}

func (r rewriteHost) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.URL.Scheme, req.URL.Host = "https", r.addr
	return r.RoundTripper.RoundTrip(req)
}

func h2Frame(typ, flags byte, stream uint32, payload []byte) []byte {
	f := []byte{byte(len(payload) >> 16), byte(len(payload) >> 8), byte(len(payload)), typ, flags}
	f = binary.BigEndian.AppendUint32(f, stream)
	return append(f, payload...)
}

func h2Code(code uint32) []byte { return binary.BigEndian.AppendUint32(nil, code) }

// h2OK is a HEADERS frame answering 200 (HPACK: static table entry 8), with end, the whole answer.
func h2OK(stream uint32, end bool) []byte {
	flags := byte(0x4) // END_HEADERS
	if end {
		flags |= 0x1 // END_STREAM
	}
	return h2Frame(0x1, flags, stream, []byte{0x88})
}

// A connection that the server closes after GOAWAY, with the request's stream among those it may
// have processed: retried when the request is safe to repeat (a GET), not for an unkeyed POST.
func TestHTTP2GoAwayIsRetriedWhenSafe(t *testing.T) {
	base := rawH2(t, func(n int, w io.Writer, stream uint32) bool {
		if n%2 == 1 {
			w.Write(h2Frame(0x7, 0, 0, append(binary.BigEndian.AppendUint32(nil, stream), h2Code(0x2)...))) // GOAWAY, INTERNAL_ERROR
			return true
		}
		w.Write(h2OK(stream, true))
		return false
	})
	client := &http.Client{Transport: &retryhttp.Transport{Base: base.Transport, Policy: fastPolicy()}}
	resp, err := client.Get("https://example.test/")
	require.NoError(t, err, "a GET whose connection went away after GOAWAY is retried")
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)

	_, err = client.Post("https://example.test/", "text/plain", nil)
	require.Error(t, err, "an unkeyed POST that the server may have processed is not retried")
	assert.Contains(t, err.Error(), "GOAWAY")
}

// REFUSED_STREAM says that the server did not process the stream at all: even an unkeyed POST
// may be sent again. (net/http retries a refused stream itself before returning one; the error is
// taken here from a body, where it comes out at once.)
func TestHTTP2RefusedStreamIsNeverSent(t *testing.T) {
	base := rawH2(t, func(_ int, w io.Writer, stream uint32) bool {
		w.Write(h2OK(stream, false))
		w.Write(h2Frame(0x3, 0, stream, h2Code(0x7))) // RST_STREAM, REFUSED_STREAM
		return false
	})
	req, err := http.NewRequest(http.MethodPost, "https://example.test/", bytes.NewReader(nil))
	require.NoError(t, err)
	resp, err := base.Do(req)
	require.NoError(t, err)
	_, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	require.ErrorContains(t, err, "REFUSED_STREAM")
	assert.True(t, retry.IsRetryable(retry.CheckHTTP(req, nil, err)), "a refused stream was never processed: %v", err)

	var internal error
	base = rawH2(t, func(_ int, w io.Writer, stream uint32) bool {
		w.Write(h2OK(stream, false))
		w.Write(h2Frame(0x3, 0, stream, h2Code(0x2))) // RST_STREAM, INTERNAL_ERROR
		return false
	})
	resp, err = base.Do(req)
	require.NoError(t, err)
	_, internal = io.ReadAll(resp.Body)
	resp.Body.Close()
	require.ErrorContains(t, internal, "INTERNAL_ERROR")
	assert.False(t, retry.IsRetryable(retry.CheckHTTP(req, nil, internal)), "an unkeyed POST reset mid-way may have been processed")
	assert.True(t, retry.IsTransient(internal))
	get, _ := http.NewRequest(http.MethodGet, "https://example.test/", nil)
	assert.True(t, retry.IsRetryable(retry.CheckHTTP(get, nil, internal)))
}
