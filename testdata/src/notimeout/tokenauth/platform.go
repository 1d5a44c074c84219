//go:build legacyplatform

package tokenauth

import (
	"context"
	"net/http"
	"time"
)

func init() {
	platformClient = func(ctx context.Context) *http.Client {
		return &http.Client{Timeout: 30 * time.Second}
	}
}
