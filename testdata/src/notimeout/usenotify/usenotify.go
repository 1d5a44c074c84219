// Package usenotify dispatches events to notify's webhooks: it is notify's module, so the
// contexts it passes are what bound the posts.
package usenotify

import (
	"context"
	"log"
	"net/http"
	"time"

	"notimeout/internal/notify"
)

type event struct {
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// ---- Not reported: every post has a deadline ----

func dispatch(r *http.Request, hooks []*notify.Webhook, ev event) {
	ctx, cancel := context.WithTimeout(r.Context(), 15*time.Second)
	defer cancel()
	for _, h := range hooks {
		if err := h.Post(ctx, ev); err != nil {
			log.Printf("notify %s: %v", h.URL, err)
		}
	}
}

func dispatchAsync(hooks []*notify.Webhook, ev event, timeout time.Duration) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		for _, h := range hooks {
			if err := h.Post(ctx, ev); err != nil {
				log.Printf("notify %s: %v", h.URL, err)
			}
		}
	}()
}

// ---- Reported: a post with no deadline at all ----

func announce(h *notify.Webhook, ev event) {
	if err := h.Post(context.Background(), ev); err != nil { // related "notify.go:27: Webhook.Post passes its context to Client.Do" "usenotify.go:46: context.Background() has no deadline" // want `Webhook\.Post passes a context without a deadline to Client\.Do, so a stalled server hangs this call`
		log.Printf("announce: %v", err)
	}
}
