// Package usewrappers uses the wrappers SDK from another package: the functions that pass the
// context down several layers are known through facts.
package usewrappers

import (
	"context"
	"time"

	"notimeout/wrappers"
)

// ---- Not reported: the SDK's client, without a Timeout, is reported where the SDK chooses it ----

func create() {
	c := wrappers.NewClient("https://widgets.example.com")
	c.CreateWidget(context.TODO(), "x")
}

func syncOne(s *wrappers.Syncer) {
	s.SyncOne(context.Background(), "x")
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
