package main_test

// End-to-end tests: the five verifications, against the payments binary running as a subprocess
// (so that SIGKILL is real), on PostgreSQL and, where it applies, on the memory store.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/idemlint/idemlint/examples/payments/internal/service"
	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/idempotency/pgstore/pgtest"
)

var binary string // built once by TestMain

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "payments-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "payments")
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goTool); err != nil {
		goTool = "go"
	}
	build := exec.Command(goTool, "build", "-o", binary, ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building the payments binary:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

const body1000 = `{"amount": 1000, "currency": "EUR", "customer": "cus_1"}`

// server is one run of the payments binary.
type server struct {
	t    *testing.T
	cmd  *exec.Cmd
	base string
	logs *syncBuffer
	done chan struct{}
}

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// start runs the binary with args on a free loopback port and waits until it listens.
func start(t *testing.T, args ...string) *server {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"-addr", "127.0.0.1:0"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	s := &server{t: t, cmd: cmd, logs: &syncBuffer{}, done: make(chan struct{})}
	cmd.Stderr = s.logs
	require.NoError(t, cmd.Start())
	go func() {
		cmd.Wait()
		close(s.done)
	}()
	t.Cleanup(func() {
		s.kill()
		if t.Failed() {
			t.Logf("server %v logs:\n%s", args, s.logs.String())
		}
	})

	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if a, ok := strings.CutPrefix(sc.Text(), "listening on "); ok {
				addr <- a
			}
		}
	}()
	select {
	case a := <-addr:
		s.base = "http://" + a
	case <-s.done:
		t.Fatalf("the server exited before listening:\n%s", s.logs.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("the server did not start listening:\n%s", s.logs.String())
	}
	return s
}

// kill sends SIGKILL and waits for the process to be gone.
func (s *server) kill() {
	select {
	case <-s.done:
		return
	default:
	}
	s.cmd.Process.Kill()
	<-s.done
}

type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) replayed() bool { return r.header.Get("Idempotent-Replayed") == "true" }

func (r response) problem(t *testing.T) idempotency.Problem {
	t.Helper()
	assert.Equal(t, "application/problem+json", r.header.Get("Content-Type"))
	var p idempotency.Problem
	require.NoError(t, json.Unmarshal(r.body, &p), "%s", r.body)
	return p
}

var client = &http.Client{Timeout: 30 * time.Second}

func (s *server) post(tenant, key, body string) (response, error) {
	req, err := http.NewRequest(http.MethodPost, s.base+"/v1/payments", strings.NewReader(body))
	if err != nil {
		return response{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	if tenant != "" {
		req.Header.Set("X-Tenant-ID", tenant)
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	return s.send(req)
}

func (s *server) mustPost(tenant, key, body string) response {
	s.t.Helper()
	r, err := s.post(tenant, key, body)
	require.NoError(s.t, err)
	return r
}

func (s *server) send(req *http.Request) (response, error) {
	resp, err := client.Do(req)
	if err != nil {
		return response{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return response{status: resp.StatusCode, header: resp.Header, body: b}, err
}

func (s *server) get(path, tenant string) response {
	s.t.Helper()
	req, err := http.NewRequest(http.MethodGet, s.base+path, nil)
	require.NoError(s.t, err)
	if tenant != "" {
		req.Header.Set("X-Tenant-ID", tenant)
	}
	r, err := s.send(req)
	require.NoError(s.t, err)
	return r
}

func (s *server) payments(tenant string) []service.Payment {
	s.t.Helper()
	r := s.get("/v1/payments", tenant)
	require.Equal(s.t, http.StatusOK, r.status, "%s", r.body)
	var out struct{ Payments []service.Payment }
	require.NoError(s.t, json.Unmarshal(r.body, &out))
	return out.Payments
}

func (s *server) charges() []service.Charge {
	s.t.Helper()
	r := s.get("/v1/provider/charges", "")
	require.Equal(s.t, http.StatusOK, r.status, "%s", r.body)
	var out struct{ Charges []service.Charge }
	require.NoError(s.t, json.Unmarshal(r.body, &out))
	return out.Charges
}

// requireOnePayment checks that tenant has exactly one payment, succeeded, charged exactly once,
// and that created (a 201 body) describes it.
func requireOnePayment(t *testing.T, s *server, tenant string, created response) {
	t.Helper()
	ps := s.payments(tenant)
	require.Len(t, ps, 1, "exactly one payment")
	assert.Equal(t, "succeeded", ps[0].Status)
	cs := s.charges()
	require.Len(t, cs, 1, "exactly one charge")
	assert.Equal(t, ps[0].ChargeID, cs[0].ID)
	assert.EqualValues(t, 1000, cs[0].Amount)
	var p service.Payment
	require.NoError(t, json.Unmarshal(created.body, &p))
	assert.Equal(t, ps[0], p)
	assert.Equal(t, "/v1/payments/"+p.ID, created.header.Get("Location"))
}

// stores lists the store configurations to run a test on. PostgreSQL is skipped (loudly) without
// IDEMLINT_PG_DSN, and required with CI=true.
func stores(t *testing.T, memory bool, fn func(t *testing.T, args []string)) {
	if memory {
		t.Run("memory", func(t *testing.T) {
			t.Parallel()
			fn(t, []string{"-store", "memory"})
		})
	}
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		fn(t, []string{"-store", "postgres", "-dsn", pgtest.Schema(t)})
	})
}

// Verification 1: the same keyed request twice gives one payment, one charge and byte-identical
// responses.
func TestSameRequestTwice(t *testing.T) {
	stores(t, true, func(t *testing.T, args []string) {
		s := start(t, args...)
		first := s.mustPost("acme", "key-1", body1000)
		require.Equal(t, http.StatusCreated, first.status, "%s", first.body)
		assert.False(t, first.replayed())

		// Keys in another order, other whitespace: the same request.
		second := s.mustPost("acme", "key-1", `{"customer":"cus_1","currency":"EUR","amount":1000}`)
		require.Equal(t, http.StatusCreated, second.status)
		assert.True(t, second.replayed())
		assert.Equal(t, first.body, second.body, "byte-identical body")
		for _, h := range []string{"Content-Type", "Location", "Etag", "Content-Length"} {
			assert.Equal(t, first.header.Values(h), second.header.Values(h), h)
		}
		requireOnePayment(t, s, "acme", first)
		assert.Equal(t, 1, s.charges()[0].Requests, "the replay never reached the provider")
	})
}

// Verification 2: 50 concurrent requests with one key give exactly one payment; the rest get a
// 409 or the replay.
func TestConcurrentRequestsOneKey(t *testing.T) {
	stores(t, true, func(t *testing.T, args []string) {
		s := start(t, append(args, "-charge-delay", "1s")...)
		const n = 50
		results := make([]response, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		startGun := make(chan struct{})
		for i := range n {
			wg.Go(func() {
				<-startGun
				results[i], errs[i] = s.post("acme", "race-key", body1000)
			})
		}
		close(startGun)
		wg.Wait()

		var created []response
		var replays, conflicts int
		for i, r := range results {
			require.NoError(t, errs[i])
			switch {
			case r.status == http.StatusCreated && !r.replayed():
				created = append(created, r)
			case r.status == http.StatusCreated:
				replays++
			case r.status == http.StatusConflict:
				conflicts++
				p := r.problem(t)
				assert.Equal(t, idempotency.CodeKeyInProgress, p.Code)
				assert.NotEmpty(t, r.header.Get("Retry-After"))
			default:
				t.Errorf("unexpected response %d: %s", r.status, r.body)
			}
		}
		require.Len(t, created, 1, "exactly one request is processed")
		assert.Equal(t, n, 1+replays+conflicts)
		assert.Positive(t, conflicts, "the requests overlapped the one in progress")
		for _, r := range results {
			if r.status == http.StatusCreated {
				assert.Equal(t, created[0].body, r.body)
			}
		}
		again := s.mustPost("acme", "race-key", body1000)
		assert.True(t, again.replayed())
		assert.Equal(t, created[0].body, again.body)
		requireOnePayment(t, s, "acme", created[0])
	})
}

// Verification 3: key reuse with another body gives 422.
func TestKeyReuseWithAnotherBody(t *testing.T) {
	stores(t, true, func(t *testing.T, args []string) {
		s := start(t, args...)
		first := s.mustPost("acme", "key-1", body1000)
		require.Equal(t, http.StatusCreated, first.status)
		r := s.mustPost("acme", "key-1", `{"amount": 2000, "currency": "EUR", "customer": "cus_1"}`)
		require.Equal(t, http.StatusUnprocessableEntity, r.status, "%s", r.body)
		assert.Equal(t, idempotency.CodeKeyReused, r.problem(t).Code)
		requireOnePayment(t, s, "acme", first)
	})
}

// Verification 4: the process killed with SIGKILL while it waits to charge, then retried after
// the lease, completes with exactly one payment and one charge.
func TestKilledMidRequestThenRetried(t *testing.T) {
	t.Parallel()
	const lease = 2 * time.Second
	dsn := pgtest.Schema(t)
	args := []string{"-store", "postgres", "-dsn", dsn, "-lease", lease.String()}
	s := start(t, append(args, "-charge-delay", "1m")...)

	inflight := make(chan error, 1)
	go func() {
		_, err := s.post("acme", "kill-key", body1000)
		inflight <- err
	}()
	// Wait for the recovery point: the payment is recorded, the charge not yet made.
	require.Eventually(t, func() bool { return len(s.payments("acme")) == 1 }, 10*time.Second, 20*time.Millisecond)
	require.Equal(t, "pending", s.payments("acme")[0].Status)
	s.kill()
	killedAt := time.Now()
	require.Error(t, <-inflight, "the client sees the connection die")

	s2 := start(t, args...)
	// While the crashed request's lease runs, a retry is told to wait.
	if leaseLeft(t, dsn, "acme", "kill-key") > 300*time.Millisecond {
		r := s2.mustPost("acme", "kill-key", body1000)
		require.Equal(t, http.StatusConflict, r.status, "the crashed request's lease still runs: %s", r.body)
		assert.Equal(t, idempotency.CodeKeyInProgress, r.problem(t).Code)
	} else {
		t.Log("the lease ended before the server restarted; not checking the 409")
	}
	r := s2.mustPost("acme", "kill-key", body1000)
	// Retry like a client: honour Retry-After until the request completes.
	deadline := time.Now().Add(20 * time.Second)
	for r.status == http.StatusConflict && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
		r = s2.mustPost("acme", "kill-key", body1000)
	}
	require.Equal(t, http.StatusCreated, r.status, "%s", r.body)
	assert.False(t, r.replayed(), "the retry resumed the crashed request")
	assert.GreaterOrEqual(t, time.Since(killedAt), lease/2, "resumed only once the lease was over")

	requireOnePayment(t, s2, "acme", r)
	assert.Equal(t, 1, s2.charges()[0].Requests, "the recorded payment was reused, and charged once")
	again := s2.mustPost("acme", "kill-key", body1000)
	assert.True(t, again.replayed())
	assert.Equal(t, r.body, again.body)
}

// leaseLeft reads how long the lease on a key still runs, from the database.
func leaseLeft(t *testing.T, dsn, tenant, key string) time.Duration {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	require.NoError(t, err)
	defer conn.Close(ctx)
	var left time.Duration
	require.NoError(t, conn.QueryRow(ctx, `SELECT greatest(locked_until - clock_timestamp(), interval '0')
FROM idempotency_keys WHERE scope = $1 AND key = $2 AND state = 'in_progress'`, tenant, key).Scan(&left))
	return left
}

// A crash after the provider accepted the charge but before the service recorded it: the retry
// charges again with the same derived key, and the provider counts one charge.
func TestKilledAfterChargeThenRetried(t *testing.T) {
	t.Parallel()
	dsn := pgtest.Schema(t)
	args := []string{"-store", "postgres", "-dsn", dsn, "-lease", "1s"}
	s := start(t, append(args, "-crash-after-charge")...)
	_, err := s.post("acme", "crash-key", body1000)
	require.Error(t, err, "the process killed itself mid-request")
	<-s.done

	s2 := start(t, args...)
	var r response
	require.Eventually(t, func() bool {
		r = s2.mustPost("acme", "crash-key", body1000)
		return r.status != http.StatusConflict
	}, 20*time.Second, 200*time.Millisecond)
	require.Equal(t, http.StatusCreated, r.status, "%s", r.body)
	requireOnePayment(t, s2, "acme", r)
	assert.Equal(t, 2, s2.charges()[0].Requests, "the provider saw the derived key twice and charged once")
}

// proxy is a TCP proxy to PostgreSQL that the tests cut to simulate a database outage.
type proxy struct {
	target string
	addr   string
	mu     sync.Mutex
	ln     net.Listener
	conns  map[net.Conn]bool
}

func newProxy(t *testing.T, target string) *proxy {
	p := &proxy{target: target, addr: "127.0.0.1:0", conns: make(map[net.Conn]bool)}
	p.up(t)
	t.Cleanup(p.down)
	return p
}

func (p *proxy) up(t *testing.T) {
	ln, err := net.Listen("tcp", p.addr)
	require.NoError(t, err)
	p.mu.Lock()
	p.ln, p.addr = ln, ln.Addr().String()
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.pipe(c)
		}
	}()
}

func (p *proxy) pipe(c net.Conn) {
	u, err := net.Dial("tcp", p.target)
	if err != nil {
		c.Close()
		return
	}
	p.mu.Lock()
	p.conns[c], p.conns[u] = true, true
	p.mu.Unlock()
	go func() { io.Copy(u, c); u.Close() }()
	io.Copy(c, u)
	c.Close()
}

// down closes the listener and every connection: the database is unreachable.
func (p *proxy) down() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
}

// viaProxy starts a proxy to the database of dsn and returns the DSN through it.
func viaProxy(t *testing.T, dsn string) (string, *proxy) {
	u, err := url.Parse(dsn)
	require.NoError(t, err, "these tests need a postgres:// URL DSN")
	host := u.Host
	if u.Port() == "" {
		host = net.JoinHostPort(u.Hostname(), "5432")
	}
	p := newProxy(t, host)
	u.Host = p.addr
	return u.String(), p
}

// Verification 5: a store outage gives a clear 503, not a duplicate.
func TestStoreOutage(t *testing.T) {
	t.Parallel()
	dsn, p := viaProxy(t, pgtest.Schema(t))
	s := start(t, "-store", "postgres", "-dsn", dsn, "-lease", "2s")
	done := s.mustPost("acme", "before-outage", body1000)
	require.Equal(t, http.StatusCreated, done.status)

	p.down()
	for _, key := range []string{"before-outage", "during-outage"} {
		r := s.mustPost("acme", key, body1000)
		require.Equal(t, http.StatusServiceUnavailable, r.status, "%s: %s", key, r.body)
		pr := r.problem(t)
		assert.Equal(t, idempotency.CodeStoreUnavailable, pr.Code)
		assert.Contains(t, pr.Detail, "was not processed")
		assert.Equal(t, "1", r.header.Get("Retry-After"))
	}

	p.up(t)
	r := s.mustPost("acme", "before-outage", body1000)
	require.Equal(t, http.StatusCreated, r.status, "%s", r.body)
	assert.True(t, r.replayed())
	assert.Equal(t, done.body, r.body)
	r = s.mustPost("acme", "during-outage", body1000)
	require.Equal(t, http.StatusCreated, r.status, "%s", r.body)
	assert.False(t, r.replayed(), "the key was not consumed by the outage")
	assert.Len(t, s.payments("acme"), 2)
	assert.Len(t, s.charges(), 2)
}

// The database goes away in the middle of a request (after the payment was recorded): a 503,
// and once it is back, the retry completes the same payment.
func TestStoreOutageMidRequest(t *testing.T) {
	t.Parallel()
	dsn, p := viaProxy(t, pgtest.Schema(t))
	s := start(t, "-store", "postgres", "-dsn", dsn, "-lease", "1s", "-charge-delay", "1s")
	inflight := make(chan response, 1)
	go func() { inflight <- s.mustPost("acme", "mid-key", body1000) }()
	require.Eventually(t, func() bool { return len(s.payments("acme")) == 1 }, 10*time.Second, 20*time.Millisecond)
	p.down()
	r := <-inflight
	require.Equal(t, http.StatusServiceUnavailable, r.status, "%s", r.body)
	assert.Equal(t, "temporarily_unavailable", r.problem(t).Code)

	p.up(t)
	require.Eventually(t, func() bool {
		r = s.mustPost("acme", "mid-key", body1000)
		return r.status != http.StatusConflict
	}, 20*time.Second, 200*time.Millisecond)
	require.Equal(t, http.StatusCreated, r.status, "%s", r.body)
	requireOnePayment(t, s, "acme", r)
}

func TestBadRequests(t *testing.T) {
	stores(t, true, func(t *testing.T, args []string) {
		s := start(t, args...)
		r := s.mustPost("acme", "", body1000)
		require.Equal(t, http.StatusBadRequest, r.status)
		assert.Equal(t, idempotency.CodeKeyMissing, r.problem(t).Code)

		r = s.mustPost("", "k", body1000)
		require.Equal(t, http.StatusBadRequest, r.status)
		assert.Equal(t, idempotency.CodeTenantInvalid, r.problem(t).Code)

		r = s.mustPost("acme", "bad key", body1000)
		require.Equal(t, http.StatusBadRequest, r.status)
		assert.Contains(t, r.problem(t).Detail, "cannot contain spaces")

		r = s.mustPost("acme", "big", `{"pad":"`+strings.Repeat("x", 2<<20)+`"}`)
		require.Equal(t, http.StatusRequestEntityTooLarge, r.status)
		assert.Equal(t, idempotency.CodeBodyTooLarge, r.problem(t).Code)

		// A validation error rejects the request before any work: it is not stored, so the client
		// fixes its body and keeps its key.
		r = s.mustPost("acme", "neg", `{"amount": -5, "currency": "EUR", "customer": "cus_1"}`)
		require.Equal(t, http.StatusBadRequest, r.status)
		assert.Equal(t, "invalid_amount", r.problem(t).Code)
		again := s.mustPost("acme", "neg", `{"amount": -5, "currency": "EUR", "customer": "cus_1"}`)
		assert.False(t, again.replayed())
		assert.Empty(t, s.payments("acme"))
		assert.Empty(t, s.charges())
		fixed := s.mustPost("acme", "neg", body1000)
		require.Equal(t, http.StatusCreated, fixed.status, "%s", fixed.body)
		requireOnePayment(t, s, "acme", fixed)
	})
}

func TestTenantsAreIsolated(t *testing.T) {
	stores(t, true, func(t *testing.T, args []string) {
		s := start(t, args...)
		a := s.mustPost("tenant-a", "same-key", body1000)
		b := s.mustPost("tenant-b", "same-key", body1000)
		require.Equal(t, http.StatusCreated, a.status)
		require.Equal(t, http.StatusCreated, b.status)
		assert.False(t, b.replayed(), "tenant b must not get tenant a's payment")
		assert.NotEqual(t, a.body, b.body)
		assert.Len(t, s.payments("tenant-a"), 1)
		assert.Len(t, s.payments("tenant-b"), 1)
		cs := s.charges()
		require.Len(t, cs, 2, "the derived keys differ per tenant")
		assert.NotEqual(t, cs[0].Key, cs[1].Key)
		r := s.get("/v1/payments/"+s.payments("tenant-a")[0].ID, "tenant-b")
		assert.Equal(t, http.StatusNotFound, r.status)
	})
}
