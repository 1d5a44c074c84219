// Package alertroute sends alerts through the module's internal chat client: the alert
// path bounds each notification; the start-up greeting hands it a context that never ends.
package alertroute

import (
	"context"
	"log"
	"time"

	"notimeout/alertroute/internal/chatwebhook"
)

type Router struct {
	chat *chatwebhook.Client
}

func New(url string) *Router { return &Router{chat: chatwebhook.New(url)} }

// Fire bounds the notification: not reported.
func (r *Router) Fire(ctx context.Context, name string) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := r.chat.Notify(ctx, "alert: "+name); err != nil {
		log.Printf("notify %s: %v", name, err)
	}
}

// Hello announces the router with a context that never ends: reported here.
func (r *Router) Hello() {
	if err := r.chat.Notify(context.Background(), "alert router started"); err != nil { // related "chatwebhook.go:29: Client.Notify passes its context to Client.Do" "alertroute.go:30: context.Background() has no deadline" // want `Client\.Notify passes a context without a deadline to Client\.Do, so a stalled server hangs this call`
		log.Printf("hello: %v", err)
	}
}
