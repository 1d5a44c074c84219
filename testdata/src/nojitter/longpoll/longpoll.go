// Package longpoll receives a chat bot's updates by long polling: the server holds each
// request until updates arrive or its timeout passes, so the answers pace the loop while the
// server is up. While it is down every request fails at once, and a loop that then goes round
// without waiting spins against it.
package longpoll

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"
)

// Update is one event for the bot.
type Update struct {
	ID      int    `json:"update_id"`
	Message string `json:"message"`
}

// Bot talks to the chat API.
type Bot struct {
	client *http.Client
	api    string
	log    *slog.Logger
}

// New makes a bot whose requests time out after the long poll's hold plus a margin.
func New(api string, hold time.Duration, log *slog.Logger) *Bot {
	return &Bot{client: &http.Client{Timeout: hold + 10*time.Second}, api: api, log: log}
}

func (b *Bot) getUpdates(offset int, hold time.Duration) ([]Update, error) {
	q := url.Values{}
	q.Set("offset", strconv.Itoa(offset))
	q.Set("timeout", strconv.Itoa(int(hold/time.Second)))
	resp, err := b.client.Get(b.api + "/getUpdates?" + q.Encode())
	if err != nil {
		return nil, fmt.Errorf("getUpdates: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("getUpdates: %s", resp.Status)
	}
	var out struct {
		OK     bool     `json:"ok"`
		Result []Update `json:"result"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, fmt.Errorf("getUpdates: decoding: %w", err)
	}
	return out.Result, nil
}

// Poller delivers updates to a channel until it is stopped.
type Poller struct {
	Hold time.Duration
	last int
}

// ---- Reported: a failed poll goes round at once ----

// Poll polls until stop is closed; a failure is logged and polled again.
func (p *Poller) Poll(b *Bot, dest chan<- Update, stop <-chan struct{}) {
	for { // related "longpoll.go:71: long-running loop" // want `long-running loop goes round at once when its remote call fails: it spins against a failing dependency`
		select {
		case <-stop:
			return
		default:
		}
		updates, err := b.getUpdates(p.last+1, p.Hold)
		if err != nil {
			b.log.Warn("polling failed", "err", err)
			continue
		}
		for _, u := range updates {
			p.last = u.ID
			dest <- u
		}
	}
}

// ---- Not reported ----

// PollPaced waits a jittered second after a failure.
func (p *Poller) PollPaced(ctx context.Context, b *Bot, dest chan<- Update) {
	for ctx.Err() == nil {
		updates, err := b.getUpdates(p.last+1, p.Hold)
		if err != nil {
			b.log.Warn("polling failed", "err", err)
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Second/2 + rand.N(time.Second)):
			}
			continue
		}
		for _, u := range updates {
			p.last = u.ID
			dest <- u
		}
	}
}

var errHeld = errors.New("poll held without updates")

func (b *Bot) next(offset int, hold time.Duration) ([]Update, error) {
	us, err := b.getUpdates(offset, hold)
	if err == nil && len(us) == 0 {
		return nil, errHeld
	}
	return us, err
}

// PollHeld goes round at once only when the server held the poll and had nothing: any other
// failure ends the loop.
func (p *Poller) PollHeld(ctx context.Context, b *Bot, dest chan<- Update) error {
	for ctx.Err() == nil {
		updates, err := b.next(p.last+1, p.Hold)
		if errors.Is(err, errHeld) {
			continue
		}
		if err != nil {
			return err
		}
		for _, u := range updates {
			p.last = u.ID
			dest <- u
		}
	}
	return ctx.Err()
}

func (b *Bot) getUpdatesBackingOff(offset int, hold time.Duration) ([]Update, error) {
	us, err := b.getUpdates(offset, hold)
	if err != nil {
		time.Sleep(time.Second + rand.N(time.Second)) // before the caller polls again
	}
	return us, err
}

// PollThrough polls through a function that waits after a failure before it returns.
func (p *Poller) PollThrough(b *Bot, dest chan<- Update, stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		default:
		}
		updates, err := b.getUpdatesBackingOff(p.last+1, p.Hold)
		if err != nil {
			continue
		}
		for _, u := range updates {
			p.last = u.ID
			dest <- u
		}
	}
}

func (b *Bot) ack(offset int) error {
	resp, err := b.client.Post(b.api+"/ack?offset="+strconv.Itoa(offset), "application/json", nil)
	if err != nil {
		return fmt.Errorf("ack: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("ack: %s", resp.Status)
	}
	return nil
}

// AckFlusher sends the offsets it is asked to acknowledge; a failed send waits for the next
// request: the requests pace it, not the server's answers.
func (b *Bot) AckFlusher(acks <-chan int) {
	for {
		offset, ok := <-acks
		if !ok {
			return
		}
		if err := b.ack(offset); err != nil {
			b.log.Warn("ack failed", "offset", offset, "err", err)
			continue
		}
		b.log.Debug("acked", "offset", offset)
	}
}

// Outbox batches acknowledgements; its flusher sends them when asked to.
type Outbox struct {
	mu        sync.Mutex
	bot       *Bot
	pending   []int
	err       error
	closed    bool
	giveUp    bool
	flushReqs chan struct{}
}

// flusher sends the pending acknowledgements each time it is asked to; a failed send is
// recorded and waits for the next request.
func (o *Outbox) flusher() {
	for {
		if _, ok := <-o.flushReqs; !ok {
			return
		}
		o.mu.Lock()
		if o.closed {
			o.mu.Unlock()
			return
		}
		if len(o.pending) > 0 {
			if err := o.bot.ack(o.pending[len(o.pending)-1]); err != nil {
				if o.err == nil {
					o.err = err
				}
				if o.giveUp {
					o.mu.Unlock()
					return
				}
			} else {
				o.pending = o.pending[:0]
			}
		}
		o.mu.Unlock()
	}
}
