// Package adminnotify posts the admin actions of a queue's web console to a webhook, through
// transports that bound the wait for an answer (deadlinetransport).
package adminnotify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"time"

	"notimeout/deadlinetransport"
)

type Action struct {
	Kind    string    `json:"action"`
	Topic   string    `json:"topic"`
	Channel string    `json:"channel,omitempty"`
	User    string    `json:"user,omitempty"`
	At      time.Time `json:"timestamp"`
}

type Options struct {
	Endpoint       string
	ConnectTimeout time.Duration
	RequestTimeout time.Duration
}

type Notifier struct {
	opts    Options
	actions chan Action
}

// ---- Not reported ----

// Run posts each action and closes the answer unread: the transport's ResponseHeaderTimeout
// bounds the wait for the header, and nothing waits for the body.
func (n *Notifier) Run() {
	for a := range n.actions {
		content, err := json.Marshal(a)
		if err != nil {
			log.Printf("serialize admin action: %v", err)
			continue
		}
		hc := &http.Client{
			Transport: deadlinetransport.New(n.opts.ConnectTimeout, n.opts.RequestTimeout),
		}
		log.Printf("POSTing notification to %s", n.opts.Endpoint)
		resp, err := hc.Post(n.opts.Endpoint, "application/json", bytes.NewBuffer(content))
		if err != nil {
			log.Printf("POST notification: %v", err)
			continue
		}
		if resp.StatusCode >= 300 {
			log.Printf("POST notification: %s", resp.Status)
		}
		resp.Body.Close()
	}
}

// Ack posts an action and reads the webhook's answer whole: the transport bounds the wait for
// a stalled server, and the body comes from one that has answered.
func (n *Notifier) Ack(a Action) (string, error) {
	content, err := json.Marshal(a)
	if err != nil {
		return "", err
	}
	hc := &http.Client{Transport: deadlinetransport.New(n.opts.ConnectTimeout, n.opts.RequestTimeout)}
	resp, err := hc.Post(n.opts.Endpoint+"/ack", "application/json", bytes.NewReader(content))
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if err != nil {
		return "", fmt.Errorf("read ack: %w", err)
	}
	return string(body), nil
}

// ---- Reported ----

// Ping posts through a transport that bounds only the connect: a server that accepts and
// never answers holds the call, body read or not.
func (n *Notifier) Ping() error {
	hc := &http.Client{Transport: deadlinetransport.Pooled(n.opts.ConnectTimeout)} // related "adminnotify.go:89: Client.Post sends a request without a context through it" // want `this http\.Client has no Timeout`
	resp, err := hc.Post(n.opts.Endpoint+"/ping", "application/json", nil)
	if err != nil {
		return err
	}
	resp.Body.Close()
	return nil
}
