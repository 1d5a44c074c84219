package memstore_test

import (
	"testing"
	"time"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/idempotency/memstore"
	"github.com/idemlint/idemlint/runtime/idempotency/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T, now func() time.Time) idempotency.Store {
		return memstore.New(memstore.WithClock(now))
	})
}
