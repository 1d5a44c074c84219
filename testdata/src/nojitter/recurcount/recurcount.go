// Package recurcount publishes events to a webhook, retrying a failed send by calling itself
// with the attempt number plus one. The count bounds the retries only where it is tested: a
// closure that steps its own count but tests a captured one retries for ever.
package recurcount

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"time"
)

const maxRetries = 5

// Publisher sends events.
type Publisher struct {
	client *http.Client
	url    string
	log    *slog.Logger
}

func (p *Publisher) post(body []byte) error {
	resp, err := p.client.Post(p.url, "application/json", bytes.NewReader(body))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 500 {
		return fmt.Errorf("webhook: %s", resp.Status)
	}
	return nil
}

// ---- Reported: the cap tests a count that never changes ----

// Publish sends event in the background; first is the attempt it starts at.
func (p *Publisher) Publish(event any, first int) {
	body, err := json.Marshal(event)
	if err != nil {
		p.log.Error("encoding event", "err", err)
		return
	}
	var retrier func(attempt int)
	retrier = func(attempt int) { // related "recurcount.go:47: retrying recursion" // want `retrying function retrier retries for ever \(no attempt cap, no deadline\); pass down how many attempts are left`
		if first > maxRetries {
			return
		}
		if err := p.post(body); err != nil {
			p.log.Warn("publish failed, retrying", "err", err)
			time.Sleep(time.Second/2 + rand.N(time.Second))
			retrier(attempt + 1)
		}
	}
	go retrier(first)
}

// ---- Not reported: the count it steps is the count it tests ----

// PublishCounted sends event, retrying at most maxRetries times.
func (p *Publisher) PublishCounted(event any) {
	body, err := json.Marshal(event)
	if err != nil {
		p.log.Error("encoding event", "err", err)
		return
	}
	var retrier func(attempt int)
	retrier = func(attempt int) {
		if attempt > maxRetries {
			p.log.Error("giving up on event")
			return
		}
		if err := p.post(body); err != nil {
			p.log.Warn("publish failed, retrying", "err", err)
			time.Sleep(time.Second/2 + rand.N(time.Second))
			retrier(attempt + 1)
		}
	}
	go retrier(0)
}

// ---- Reported for its fixed wait only: a count handed on as a variadic argument is a cap ----

// Send posts body, retrying up to maxRetries times; callers give no count, the recursion does.
func (p *Publisher) Send(body []byte, retryCount ...int) {
	var c int
	if len(retryCount) != 0 {
		c = retryCount[0]
	}
	if c > maxRetries {
		p.log.Error("giving up")
		return
	}
	if err := p.post(body); err != nil {
		p.log.Warn("send failed, retrying in 10s", "err", err)
		time.Sleep(10 * time.Second) // related "recurcount.go:87: retrying recursion" // want `retrying function Send waits a fixed 10s between attempts, so clients that failed together retry together; add jitter`
		p.Send(body, c+1)
	}
}

// ---- Reported: a variadic count that nothing tests ----

// Resend posts body again after a failure, counting the tries but never testing the count:
// nothing stops it.
func (p *Publisher) Resend(body []byte, tries ...int) { // related "recurcount.go:107: retrying recursion" // want `retrying function Resend retries for ever \(no attempt cap, no deadline\); pass down how many attempts are left`
	var n int
	if len(tries) > 0 {
		n = tries[0]
	}
	if err := p.post(body); err != nil {
		p.log.Warn("resend failed", "err", err)
		time.Sleep(time.Second/2 + rand.N(time.Second))
		p.Resend(body, n+1)
	}
}

// ---- Not reported: counts kept elsewhere, and a count that is not read from the list ----

// PublishShared counts the tries in a variable the closure captures.
func (p *Publisher) PublishShared(body []byte) {
	tries := 0
	var retrier func(attempt int)
	retrier = func(attempt int) {
		tries++
		if tries > maxRetries {
			return
		}
		if err := p.post(body); err != nil {
			time.Sleep(time.Second/2 + rand.N(time.Second))
			retrier(attempt + 1)
		}
	}
	go retrier(0)
}

// Budgeted spends a budget its caller shares with other sends.
func (p *Publisher) Budgeted(body []byte, budget *int, attempt int) {
	*budget--
	if *budget <= 0 {
		return
	}
	if err := p.post(body); err != nil {
		time.Sleep(time.Second/2 + rand.N(time.Second))
		p.Budgeted(body, budget, attempt+1)
	}
}

// Highest resends with one more than the highest count it was given: the count is carried
// round a loop over the list, not read from it (the model does not follow it).
func (p *Publisher) Highest(body []byte, counts ...int) {
	c := 0
	for _, n := range counts {
		if n > c {
			c = n
		}
	}
	if c > maxRetries {
		return
	}
	if err := p.post(body); err != nil {
		time.Sleep(time.Second/2 + rand.N(time.Second))
		p.Highest(body, c+1)
	}
}

// ---- Not reported: a recursion whose count picks what the next call asks for is iteration ----

func (p *Publisher) page(n int) ([]string, error) {
	resp, err := p.client.Get(fmt.Sprintf("%s/events?page=%d", p.url, n))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var out []string
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, err
	}
	return out, nil
}

// Pages reads pages from first on; a page that fails is skipped, after a pause, for the next.
func (p *Publisher) Pages(first int) []string {
	if first > 100 {
		return nil
	}
	items, err := p.page(first)
	if err != nil {
		p.log.Warn("skipping page", "err", err)
		time.Sleep(time.Second)
		return p.Pages(first + 1)
	}
	if len(items) == 0 {
		return nil
	}
	return append(items, p.Pages(first+1)...)
}

// PagesFrom is Pages with the page number as an optional argument.
func (p *Publisher) PagesFrom(from ...int) []string {
	n := 1
	if len(from) > 0 {
		n = from[0]
	}
	if n > 100 {
		return nil
	}
	items, err := p.page(n)
	if err != nil {
		p.log.Warn("skipping page", "err", err)
		time.Sleep(time.Second)
		return p.PagesFrom(n + 1)
	}
	if len(items) == 0 {
		return nil
	}
	return append(items, p.PagesFrom(n+1)...)
}
