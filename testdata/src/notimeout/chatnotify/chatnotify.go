// Package chatnotify sends notifications through clients made by valuehttp, which returns
// them by value.
package chatnotify

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"time"

	"notimeout/valuehttp"
	"notimeout/webhooklib"
)

const (
	maxRateLimitAttempts = 3
	sendTimeout          = 20 * time.Second
)

type Config struct {
	WebhookURL string
	Proxy      string
	Insecure   bool
}

type Notifier struct {
	cfg Config
	log *log.Logger
}

// Send posts the entry, waiting out rate limits; its client has no Timeout.
func (n *Notifier) Send(entry string) error {
	msg := &webhooklib.Message{
		Text:        entry,
		Attachments: []webhooklib.Attachment{{Color: "#4caf50", Text: "new image"}},
	}
	hc, err := valuehttp.NewClient(n.cfg.Proxy, n.cfg.Insecure)
	if err != nil {
		return fmt.Errorf("cannot create HTTP client: %w", err)
	}
	for attempt := 1; attempt <= maxRateLimitAttempts; attempt++ {
		err = webhooklib.PostWebhookCustomHTTP(n.cfg.WebhookURL, &hc, msg) // related "webhooklib.go:32: webhooklib.PostWebhookCustomHTTP sends requests through the http.Client it is given" "chatnotify.go:39: valuehttp.NewClient returns an http.Client without a Timeout" // want `webhooklib.PostWebhookCustomHTTP can hang: it sends a request without a context through a client with no Timeout`
		if err == nil {
			return nil
		}
		var limited *webhooklib.RateLimitedError
		if !errors.As(err, &limited) || attempt == maxRateLimitAttempts {
			return err
		}
		n.log.Printf("rate limited, attempt %d, waiting %s", attempt, limited.RetryAfter)
		time.Sleep(limited.RetryAfter)
	}
	return err
}

// SendTimed sets a Timeout on its copy: not reported.
func (n *Notifier) SendTimed(entry string) error {
	hc, err := valuehttp.NewClient(n.cfg.Proxy, n.cfg.Insecure)
	if err != nil {
		return fmt.Errorf("cannot create HTTP client: %w", err)
	}
	hc.Timeout = sendTimeout
	return webhooklib.PostWebhookCustomHTTP(n.cfg.WebhookURL, &hc, &webhooklib.Message{Text: entry})
}

// SendWithTimedClient uses the constructor that sets one: not reported.
func (n *Notifier) SendWithTimedClient(entry string) error {
	hc, err := valuehttp.NewTimedClient(n.cfg.Proxy, 10*time.Second)
	if err != nil {
		return fmt.Errorf("cannot create HTTP client: %w", err)
	}
	return webhooklib.PostWebhookCustomHTTP(n.cfg.WebhookURL, &hc, &webhooklib.Message{Text: entry})
}

// Ping sends through the untimed client with a request bounded by its context: not reported.
func (n *Notifier) Ping(ctx context.Context) error {
	hc, err := valuehttp.NewClient(n.cfg.Proxy, false)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, n.cfg.WebhookURL, nil)
	if err != nil {
		return err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// localClient returns a client by value, with two results, in this package.
func localClient(proxy string) (http.Client, error) {
	tr, err := valuehttp.NewTransport(proxy, false)
	if err != nil {
		return http.Client{}, err
	}
	return http.Client{Transport: tr}, nil // related "chatnotify.go:111: webhooklib.PostWebhookCustomHTTP sends a request without a context through it" // want `this http.Client has no Timeout, so a stalled server hangs webhooklib.PostWebhookCustomHTTP`
}

// SendLocal sends through this package's own untimed client.
func (n *Notifier) SendLocal(entry string) error {
	hc, err := localClient(n.cfg.Proxy)
	if err != nil {
		return err
	}
	return webhooklib.PostWebhookCustomHTTP(n.cfg.WebhookURL, &hc, &webhooklib.Message{Text: entry})
}
