// Package loops holds hand-written retries (for, goto, recursion, a retry iterator) of
// non-idempotent requests, with production-shaped attempt bodies.
package loops

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"log"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"
)

type Client struct {
	http  *http.Client
	base  string
	token string
}

type Charge struct {
	Amount   int64  `json:"amount"`
	Currency string `json:"currency"`
	Customer string `json:"customer"`
}

type Receipt struct {
	ID string `json:"id"`
}

var errStatus = errors.New("server error")

func backoff(attempt int) time.Duration { return 100 * time.Millisecond << attempt }

func decode(resp *http.Response, into any) error {
	defer resp.Body.Close()
	return json.NewDecoder(resp.Body).Decode(into)
}

// ---- Reported ----

func (c *Client) CreateCharge(ctx context.Context, ch Charge) (*Receipt, error) {
	body, err := json.Marshal(ch)
	if err != nil {
		return nil, fmt.Errorf("encode charge: %w", err)
	}
	var lastErr error
	for attempt := 0; attempt < 4; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/charges", bytes.NewReader(body)) // related "loops.go:55: retry loop" "loops.go:62: sent here" // want `POST /v1/charges is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+c.token)
		resp, err := c.http.Do(req)
		if err == nil {
			if resp.StatusCode < 500 {
				var r Receipt
				if err := decode(resp, &r); err != nil {
					return nil, err
				}
				return &r, nil
			}
			resp.Body.Close()
			lastErr = fmt.Errorf("%w: status %d", errStatus, resp.StatusCode)
		} else {
			lastErr = err
		}
		log.Printf("charge attempt %d failed: %v", attempt+1, lastErr)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(backoff(attempt)):
		}
	}
	return nil, lastErr
}

// UpdateOrder retries a PATCH whose method is held in a variable.
func (c *Client) UpdateOrder(ctx context.Context, id string, fields map[string]any) error {
	method := http.MethodPatch
	payload, err := json.Marshal(fields)
	if err != nil {
		return err
	}
	for attempt := 1; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, method, c.base+"/v1/orders/"+id, bytes.NewReader(payload)) // related "loops.go:93: retry loop" "loops.go:99: sent here" // want `a PATCH request is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/merge-patch+json")
		resp, err := c.http.Do(req)
		if err != nil {
			if attempt == 3 {
				return fmt.Errorf("update order %s: %w", id, err)
			}
			time.Sleep(backoff(attempt))
			continue
		}
		resp.Body.Close()
		if resp.StatusCode >= 500 && attempt < 3 {
			time.Sleep(backoff(attempt))
			continue
		}
		return nil
	}
}

// Refund builds the request once, before the loop, and sends it again on every attempt.
func (c *Client) Refund(ctx context.Context, charge string) error {
	form := url.Values{"charge": {charge}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/refunds", strings.NewReader(form.Encode())) // related "loops.go:125: retry loop" "loops.go:126: sent here" // want `POST /v1/refunds is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.GetBody = func() (body io.ReadCloser, err error) { return nil, nil }
	for attempt := 0; attempt < 3; attempt++ {
		resp, err := c.http.Do(req)
		if err != nil {
			log.Printf("refund %s: %v", charge, err)
			time.Sleep(backoff(attempt))
			continue
		}
		resp.Body.Close()
		return nil
	}
	return errors.New("refund: giving up")
}

// Notify posts with http.Post: there is no request to put a key on.
func Notify(hook string, event []byte) error {
	var err error
	for i := 0; i < 5; i++ {
		var resp *http.Response
		resp, err = http.Post(hook+"/v1/events", "application/json", bytes.NewReader(event)) // related "loops.go:141: retry loop" // want `POST /v1/events is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Duration(i) * time.Second)
	}
	return err
}

// Transfer retries with goto.
func (c *Client) Transfer(ctx context.Context, from, to string, amount int64) error {
	attempts := 0
	body := fmt.Sprintf(`{"from":%q,"to":%q,"amount":%d}`, from, to, amount)
again:
	req, err := http.NewRequestWithContext(ctx, "POST", c.base+"/v1/transfers", strings.NewReader(body)) // related "loops.go:157: goto retry loop" "loops.go:162: sent here" // want `POST /v1/transfers is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		attempts++
		if attempts < 3 {
			time.Sleep(backoff(attempts))
			goto again
		}
		return err
	}
	resp.Body.Close()
	return nil
}

// payout retries by calling itself.
func (c *Client) payout(ctx context.Context, account string, left int) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/payouts", strings.NewReader(account)) // related "loops.go:176: retrying recursion" "loops.go:181: sent here" // want `POST /v1/payouts is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		if left == 0 {
			return err
		}
		time.Sleep(time.Second)
		return c.payout(ctx, account, left-1)
	}
	return resp.Body.Close()
}

// attempts is a retry iterator: it yields attempt numbers with a backoff between them.
func attempts(ctx context.Context, n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(backoff(i)):
			}
		}
	}
}

func (c *Client) Subscribe(ctx context.Context, plan string) error {
	var err error
	for range attempts(ctx, 3) {
		var req *http.Request
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/subscriptions", strings.NewReader(plan)) // related "loops.go:210: retry iterator loop" "loops.go:217: sent here" // want `POST /v1/subscriptions is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return err
		}
		var resp *http.Response
		if resp, err = c.http.Do(req); err == nil {
			resp.Body.Close()
			return nil
		}
	}
	return err
}

// SaveSearch creates a saved search: "searches" is a collection, not a question.
func (c *Client) SaveSearch(ctx context.Context, filter []byte) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/searches", bytes.NewReader(filter)) // related "loops.go:227: retry loop" "loops.go:232: sent here" // want `POST /v1/searches is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return err
		}
		resp, err := c.http.Do(req)
		if err != nil {
			time.Sleep(backoff(attempt))
			continue
		}
		resp.Body.Close()
		return nil
	}
	return errStatus
}

// Checkout is not a check.
func (c *Client) Checkout(ctx context.Context, cart []byte) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/checkout", bytes.NewReader(cart)) // related "loops.go:245: retry loop" "loops.go:250: sent here" // want `POST /v1/checkout is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return err
		}
		resp, err := c.http.Do(req)
		if err != nil {
			time.Sleep(backoff(attempt))
			continue
		}
		resp.Body.Close()
		return nil
	}
	return errStatus
}

// ---- Not reported ----

// Fetch retries a GET.
func (c *Client) Fetch(ctx context.Context, id string) (*Receipt, error) {
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/v1/charges/"+id, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.http.Do(req)
		if err != nil {
			time.Sleep(backoff(attempt))
			continue
		}
		var r Receipt
		return &r, decode(resp, &r)
	}
	return nil, errors.New("fetch: giving up")
}

// Replace retries a full-replacement PUT, which is idempotent.
func (c *Client) Replace(ctx context.Context, id string, doc []byte) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, c.base+"/v1/docs/"+id, bytes.NewReader(doc))
		if err != nil {
			return err
		}
		if resp, err := c.http.Do(req); err == nil {
			return resp.Body.Close()
		}
		time.Sleep(backoff(attempt))
	}
	return errors.New("replace: giving up")
}

// CreateOnce sends the POST outside any retry.
func (c *Client) CreateOnce(ctx context.Context, ch Charge) error { // want CreateOnce:"sends POST /v1/charges without an idempotency key"
	body, _ := json.Marshal(ch)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/charges", bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// DialOnly goes round only when the connection was refused: the request never left.
func (c *Client) DialOnly(ctx context.Context, ch Charge) error {
	body, _ := json.Marshal(ch)
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/charges", bytes.NewReader(body))
		if err != nil {
			return err
		}
		resp, err := c.http.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		if !errors.Is(err, syscall.ECONNREFUSED) {
			return err
		}
		log.Printf("charge: connection refused, retrying")
		time.Sleep(backoff(attempt))
	}
	return errors.New("charge: unreachable")
}

// isDialError is true only for failures before the request was written: a dial that failed,
// a name that did not resolve.
func isDialError(err error) bool {
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "dial" {
		return true
	}
	var dnsErr *net.DNSError
	return errors.As(err, &dnsErr)
}

// DialHelper goes round through a predicate of the package that tests dial errors only.
func (c *Client) DialHelper(ctx context.Context, ch Charge) error {
	body, _ := json.Marshal(ch)
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var req *http.Request
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/charges", bytes.NewReader(body))
		if err != nil {
			return err
		}
		var resp *http.Response
		resp, err = c.http.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		if !isDialError(err) {
			return fmt.Errorf("charge: %w", err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff(attempt)):
		}
	}
	return err
}

// DialOrDNS tests the error inline, with || and &&.
func (c *Client) DialOrDNS(ctx context.Context, ch Charge) error {
	body, _ := json.Marshal(ch)
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/charges", bytes.NewReader(body))
		if err != nil {
			return err
		}
		resp, err := c.http.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		var dnsErr *net.DNSError
		if attempt < 3 && (errors.Is(err, syscall.ECONNREFUSED) || errors.As(err, &dnsErr)) {
			time.Sleep(backoff(attempt))
			continue
		}
		return err
	}
}

// WaitReady polls a GraphQL query until the job is done: it repeats it after a success, by
// design. It is not a retry, and a query only reads: a retry around it repeats nothing either.
func (c *Client) WaitReady(ctx context.Context, job string) error {
	q := fmt.Sprintf(`{"query":"{ job(id: %q) { state } }"}`, job)
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/graphql", strings.NewReader(q))
		if err != nil {
			return err
		}
		resp, err := c.http.Do(req)
		if err != nil {
			return err
		}
		var out struct{ State string }
		if err := decode(resp, &out); err != nil {
			return err
		}
		if out.State == "done" {
			return nil
		}
		time.Sleep(2 * time.Second)
	}
}

// do sends one attempt with the client's credentials.
func (c *Client) do(req *http.Request) (*http.Response, error) {
	req.Header.Set("Authorization", "Bearer "+c.token)
	return c.http.Do(req)
}

// Capture sends through a helper of the package that is handed the request.
func (c *Client) Capture(ctx context.Context, id string) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/captures", strings.NewReader(id)) // related "loops.go:422: retry loop" "loops.go:427: sent here" // want `POST /v1/captures is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return err
		}
		resp, err := c.do(req)
		if err != nil {
			time.Sleep(backoff(attempt))
			continue
		}
		return resp.Body.Close()
	}
	return errors.New("capture: giving up")
}

// Throttled goes round only when the server turned the request away with 429, after the wait
// it asked for.
func (c *Client) Throttled(ctx context.Context, ch Charge) error {
	body, _ := json.Marshal(ch)
	for attempt := 0; attempt < 5; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/charges", bytes.NewReader(body))
		if err != nil {
			return err
		}
		resp, err := c.http.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusTooManyRequests {
			return nil
		}
		wait, _ := time.ParseDuration(resp.Header.Get("Retry-After") + "s")
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
	return errors.New("charge: throttled")
}

// SearchOrders asks a question too large for a URL: a POST to a search endpoint changes
// nothing, however often it is sent.
func (c *Client) SearchOrders(ctx context.Context, filter map[string]any) ([]Receipt, error) {
	body, err := json.Marshal(filter)
	if err != nil {
		return nil, fmt.Errorf("encode filter: %w", err)
	}
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/orders/search", bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+c.token)
		resp, err := c.http.Do(req)
		if err == nil && resp.StatusCode < 500 {
			var out []Receipt
			return out, decode(resp, &out)
		}
		if resp != nil {
			resp.Body.Close()
		}
		if attempt == 3 {
			return nil, fmt.Errorf("search orders: %w", errors.Join(err, errStatus))
		}
		log.Printf("search orders: attempt %d failed: %v", attempt, err)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(backoff(attempt)):
		}
	}
}

// CheckFraud posts a payment to a fraud service's check endpoint, and Count to an
// Elasticsearch count: questions, not effects.
func CheckFraud(ctx context.Context, client *http.Client, fraudURL string, payment []byte) (bool, error) {
	var declined struct{ Declined bool }
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, fraudURL+"/check", bytes.NewReader(payment))
		if err != nil {
			return false, err
		}
		resp, err := client.Do(req)
		if err != nil {
			time.Sleep(backoff(attempt))
			continue
		}
		return declined.Declined, decode(resp, &declined)
	}
	return false, errStatus
}

func (c *Client) Count(ctx context.Context, index string, query []byte) (int, error) {
	var out struct{ Count int }
	for attempt := 0; attempt < 3; attempt++ {
		resp, err := c.http.Post(c.base+"/"+index+"/_count", "application/json", bytes.NewReader(query))
		if err != nil || resp.StatusCode >= 500 {
			time.Sleep(backoff(attempt))
			continue
		}
		return out.Count, decode(resp, &out)
	}
	return 0, errStatus
}
