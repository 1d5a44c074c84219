// Package shadow retries in a module that already requires idemlint's runtime (it uses
// retry.Do elsewhere), with local names that shadow the runtime's package name: the fix must
// import the runtime under a name that means it where the wait is.
package shadow

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"time"

	"github.com/idemlint/idemlint/runtime/retry"
)

var errBusy = errors.New("busy")

type Inventory struct {
	http    *http.Client
	baseURL string
}

func (inv *Inventory) reserve(ctx context.Context, sku string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, inv.baseURL+"/v1/reservations/"+sku, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := inv.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusServiceUnavailable {
		return errBusy
	}
	if resp.StatusCode >= 300 {
		return fmt.Errorf("reserve %s: status %d", sku, resp.StatusCode)
	}
	return nil
}

// Reserve counts its retries in a variable named like the runtime's package.
func (inv *Inventory) Reserve(ctx context.Context, sku string) error {
	var err error
	for retry := 0; retry < 5; retry++ {
		if err = inv.reserve(ctx, sku); err == nil {
			return nil
		}
		log.Printf("reserve %s: retry %d: %v", sku, retry, err)
		time.Sleep(500 * time.Millisecond) // related "shadow.go:47: retry loop" // want `retry loop waits a fixed 500ms between attempts, so clients that failed together retry together; add jitter`
	}
	return err
}

// Release uses the runtime under its own name: nothing shadows it at the wait.
func (inv *Inventory) Release(ctx context.Context, sku string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = inv.reserve(ctx, sku); err == nil {
			return nil
		}
		time.Sleep(200 * time.Millisecond) // related "shadow.go:60: retry loop" // want `retry loop waits a fixed 200ms between attempts, so clients that failed together retry together; add jitter`
	}
	return err
}

// Restock is retried by the runtime: not reported.
func (inv *Inventory) Restock(ctx context.Context, sku string) error {
	return retry.Do(ctx, retry.Policy{MaxAttempts: 4}, func(ctx context.Context, _ retry.Attempt) error {
		return inv.reserve(ctx, sku)
	})
}
