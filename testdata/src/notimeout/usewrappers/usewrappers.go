// Package usewrappers uses the wrappers SDK from another package: the functions that pass the
// context down several layers are known through facts.
package usewrappers

import (
	"context"
	"time"

	"notimeout/wrappers"
)

// ---- Reported ----

func create() {
	c := wrappers.NewClient("https://widgets.example.com")
	c.CreateWidget(context.TODO(), "x") // related "wrappers.go:38: Client.CreateWidget passes its context to Client.Do" "usewrappers.go:16: context.TODO() has no deadline" // want `Client\.CreateWidget passes a context without a deadline to Client\.Do, so a stalled server hangs this call`
}

func syncOne(s *wrappers.Syncer) {
	s.SyncOne(context.Background(), "x") // related "wrappers.go:54: Syncer.SyncOne passes its context to Client.Do" "usewrappers.go:20: context.Background() has no deadline" // want `Syncer\.SyncOne passes a context without a deadline to Client\.Do, so a stalled server hangs this call`
}

// ---- Not reported ----

func deleteOne() {
	wrappers.NewClient("https://widgets.example.com").DeleteWidget(context.Background(), "x")
}

func createWithin() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	wrappers.NewClient("https://widgets.example.com").CreateWidget(ctx, "x")
}
