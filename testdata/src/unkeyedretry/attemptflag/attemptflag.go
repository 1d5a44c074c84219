// Package attemptflag is a ledger API's client whose retry loop leaves the verdict to a method:
// each attempt reports (response, again, error), and the loop goes round while again is true.
// The attempt says again only where it found a failure it may retry (a transport error or a
// status the options call retryable) and has waited out the backoff; a POST sent through it
// without an idempotency key is repeated. A pager's (page, more, error) and a status poll's
// (pending, error) say "again" on success: they are not retries.
package attemptflag

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"slices"
	"time"
)

type Options struct {
	MaxRetries     int
	InitialDelay   time.Duration
	MaxDelay       time.Duration
	RetryableCodes []int
}

func DefaultOptions() *Options {
	return &Options{MaxRetries: 3, InitialDelay: 200 * time.Millisecond, MaxDelay: 5 * time.Second,
		RetryableCodes: []int{http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable}}
}

// Result is one attempt's outcome.
type Result struct {
	Response *http.Response
	Body     []byte
	Attempt  int
	Err      error
}

type attemptState struct {
	ctx     context.Context
	client  *http.Client
	opts    *Options
	logger  *slog.Logger
	lastErr error
	status  int
}

// run is the retry loop: the verdict comes back from the attempt.
func (s *attemptState) run(req *http.Request) (*Result, error) {
	for attempt := 0; attempt <= s.opts.MaxRetries; attempt++ { // related "attemptflag.go:200: POST /v1/transfers sent here" // want `the retry loop in attemptState\.run retries POST /v1/transfers without a key: a retry can repeat its effect`
		if err := s.ctx.Err(); err != nil {
			return &Result{Attempt: attempt, Err: err}, fmt.Errorf("attemptflag: cancelled: %w", err)
		}
		current, err := s.prepare(req, attempt)
		if err != nil {
			return &Result{Attempt: attempt, Err: err}, err
		}
		res, again, err := s.attempt(current, attempt)
		if err != nil {
			return res, err
		}
		if !again {
			return res, nil
		}
		s.logger.Debug("retrying", "attempt", attempt+1, "status", s.status)
	}
	return &Result{Attempt: s.opts.MaxRetries, Err: s.lastErr}, fmt.Errorf("attemptflag: gave up after %d retries: %w", s.opts.MaxRetries, s.lastErr)
}

func (s *attemptState) prepare(req *http.Request, attempt int) (*http.Request, error) {
	if attempt == 0 {
		return req, nil
	}
	clone := req.Clone(req.Context())
	if req.GetBody != nil {
		body, err := req.GetBody()
		if err != nil {
			return nil, fmt.Errorf("attemptflag: rewind body: %w", err)
		}
		clone.Body = body
	}
	return clone, nil
}

// attempt sends once and says whether to go again.
func (s *attemptState) attempt(req *http.Request, attempt int) (*Result, bool, error) {
	if req.URL == nil || req.URL.Host == "" {
		err := errors.New("attemptflag: request has no host")
		return &Result{Attempt: attempt, Err: err}, false, err
	}
	resp, err := s.client.Do(req)
	res := &Result{Response: resp, Attempt: attempt, Err: err}
	if err != nil {
		return s.onTransportError(res, err, attempt)
	}
	defer resp.Body.Close()
	return s.onResponse(res, resp, attempt)
}

func (s *attemptState) onTransportError(res *Result, err error, attempt int) (*Result, bool, error) {
	s.lastErr = err
	var ne net.Error
	if !errors.As(err, &ne) {
		return res, false, fmt.Errorf("attemptflag: send: %w", err)
	}
	if attempt >= s.opts.MaxRetries {
		return res, false, fmt.Errorf("attemptflag: send: %w", err)
	}
	if err := s.backoff(attempt); err != nil {
		return res, false, err
	}
	return nil, true, nil
}

func (s *attemptState) onResponse(res *Result, resp *http.Response, attempt int) (*Result, bool, error) {
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return res, false, fmt.Errorf("attemptflag: read body: %w", err)
	}
	res.Body = body
	s.status = resp.StatusCode
	if resp.StatusCode < 400 {
		return res, false, nil
	}
	return s.onErrorStatus(res, resp.StatusCode, attempt)
}

func (s *attemptState) onErrorStatus(res *Result, status, attempt int) (*Result, bool, error) {
	s.lastErr = fmt.Errorf("attemptflag: status %d", status)
	if !slices.Contains(s.opts.RetryableCodes, status) || attempt >= s.opts.MaxRetries {
		res.Err = s.lastErr
		return res, false, s.lastErr
	}
	if err := s.backoff(attempt); err != nil {
		return res, false, err
	}
	return nil, true, nil
}

// backoff waits before the next attempt.
func (s *attemptState) backoff(attempt int) error {
	d := s.opts.InitialDelay << attempt
	if d > s.opts.MaxDelay {
		d = s.opts.MaxDelay
	}
	d += time.Duration(rand.Int64N(int64(d/4) + 1))
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-s.ctx.Done():
		return fmt.Errorf("attemptflag: cancelled during backoff: %w", s.ctx.Err())
	case <-t.C:
		return nil
	}
}

// Do sends req with retries.
func Do(ctx context.Context, client *http.Client, req *http.Request, opts *Options) (*Result, error) { // want Do:`resends the request of parameter 2 in the retry loop in attemptflag.attemptState.run \(attemptflag.go:55\)`
	if opts == nil {
		opts = DefaultOptions()
	}
	s := &attemptState{ctx: ctx, client: client, opts: opts, logger: slog.Default()}
	return s.run(req)
}

type Ledger struct {
	hc   *http.Client
	base string
	opts *Options
}

func NewLedger(base string) *Ledger {
	return &Ledger{hc: &http.Client{Timeout: 20 * time.Second}, base: base, opts: DefaultOptions()}
}

type Transfer struct {
	From   string `json:"from"`
	To     string `json:"to"`
	Amount int64  `json:"amount"`
}

// CreateTransfer posts a transfer through the retry loop without a key: a retry after a lost
// answer moves the money twice.
func (l *Ledger) CreateTransfer(ctx context.Context, t Transfer) (string, error) {
	body, err := json.Marshal(t)
	if err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, l.base+"/v1/transfers", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	res, err := Do(ctx, l.hc, req, l.opts)
	if err != nil {
		return "", err
	}
	var out struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(res.Body, &out); err != nil {
		return "", fmt.Errorf("attemptflag: decode transfer: %w", err)
	}
	return out.ID, nil
}

// CreateAccount sends an idempotency key made once, before the retries.
func (l *Ledger) CreateAccount(ctx context.Context, name, key string) error {
	body, err := json.Marshal(map[string]string{"name": name})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, l.base+"/v1/accounts", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", key)
	_, err = Do(ctx, l.hc, req, l.opts)
	return err
}

type Page struct {
	Items []Transfer `json:"items"`
	Next  string     `json:"next"`
}

// nextPage fetches one page and says whether there is more: "more" comes with success.
func (l *Ledger) nextPage(ctx context.Context, cursor string, into *[]Transfer) (string, bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, l.base+"/v1/transfers/search?cursor="+cursor, bytes.NewReader([]byte(`{}`)))
	if err != nil {
		return "", false, err
	}
	resp, err := l.hc.Do(req)
	if err != nil {
		return "", false, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", false, fmt.Errorf("attemptflag: search: status %d", resp.StatusCode)
	}
	var p Page
	if err := json.NewDecoder(resp.Body).Decode(&p); err != nil {
		return "", false, err
	}
	*into = append(*into, p.Items...)
	if p.Next == "" {
		return "", false, nil
	}
	return p.Next, true, nil
}

// ListTransfers pages through the search: a loop over pages, not a retry.
func (l *Ledger) ListTransfers(ctx context.Context) ([]Transfer, error) { // want ListTransfers:"sends a POST request without an idempotency key"
	var all []Transfer
	cursor := ""
	for {
		next, more, err := l.nextPage(ctx, cursor, &all)
		if err != nil {
			return nil, err
		}
		if !more {
			return all, nil
		}
		cursor = next
	}
}

// pending asks whether a settlement is still running; it waits a second when it is.
func (l *Ledger) pending(ctx context.Context, id string) (bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, l.base+"/v1/settlements/"+id, nil)
	if err != nil {
		return false, err
	}
	resp, err := l.hc.Do(req)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	var st struct {
		State string `json:"state"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		return false, err
	}
	if st.State == "running" {
		time.Sleep(time.Second)
		return true, nil
	}
	return false, nil
}

// WaitSettled polls until the settlement has run: the flag says "not yet", not "failed".
func (l *Ledger) WaitSettled(ctx context.Context, id string) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	for {
		again, err := l.pending(ctx, id)
		if err != nil {
			return err
		}
		if !again {
			return nil
		}
	}
}

// keyedRunner retries only a request that carries an idempotency key; others are sent once.
type keyedRunner struct {
	ctx context.Context
	hc  *http.Client
}

func (r *keyedRunner) run(req *http.Request) (*http.Response, error) {
	keyed := req.Header.Get("Idempotency-Key") != ""
	for attempt := 0; ; attempt++ {
		resp, err := r.hc.Do(req)
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		if err == nil {
			resp.Body.Close()
			err = fmt.Errorf("attemptflag: status %d", resp.StatusCode)
		}
		if !keyed || attempt == 3 {
			return nil, err
		}
		select {
		case <-r.ctx.Done():
			return nil, r.ctx.Err()
		case <-time.After(time.Duration(rand.Int64N(int64(100 * time.Millisecond << attempt)))):
		}
	}
}

// DoIfKeyed sends req, retrying it only when it carries an Idempotency-Key.
func DoIfKeyed(ctx context.Context, client *http.Client, req *http.Request) (*http.Response, error) {
	r := &keyedRunner{ctx: ctx, hc: client}
	return r.run(req)
}
