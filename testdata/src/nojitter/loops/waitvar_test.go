package loops

import (
	"context"
	"testing"
	"time"
)

func TestPingRetries(t *testing.T) {
	orig := waitFunc
	waitFunc = func(context.Context, time.Duration) error { return nil }
	t.Cleanup(func() { waitFunc = orig })
}
