// Package workflows: a workflow that retries on its own waits on the framework's durable
// timer, which the model knows as a wait.
package workflows

import (
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/workflow"
)

// Inventory is reached through an interface the workflow is given.
type Inventory interface {
	Reserve(ctx workflow.Context, sku string, n int) error
}

var errOutOfStock = errors.New("out of stock")

// ReserveWorkflow asks again after a fixed two seconds of workflow time while stock is short.
func ReserveWorkflow(ctx workflow.Context, inv Inventory, sku string, n int) error {
	logger := workflow.GetLogger(ctx)
	for attempt := 1; attempt <= 5; attempt++ {
		err := inv.Reserve(ctx, sku, n)
		if err == nil {
			return nil
		}
		if !errors.Is(err, errOutOfStock) {
			return fmt.Errorf("reserve %s: %w", sku, err)
		}
		logger.Info("stock short, waiting", "attempt", attempt)
		if err := workflow.Sleep(ctx, 2*time.Second); err != nil { // related "workflows.go:23: retry loop" // want `retry loop waits a fixed 2s between attempts, so clients that failed together retry together; add jitter`
			return err
		}
	}
	return errOutOfStock
}
