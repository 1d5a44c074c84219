// Package notifier delivers logout notices to the clients of a session, off the request that
// ended it, through a client that follows no redirects.
package notifier

import (
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

const deliveryTimeout = 5 * time.Second

type Notifier struct {
	HTTPClient *http.Client // optional
	Logger     *slog.Logger
}

func (n *Notifier) client() *http.Client {
	if n.HTTPClient != nil {
		return n.HTTPClient
	}
	return &http.Client{
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// Notify returns at once; the deliveries share one deadline, set in the goroutine that runs
// them and captured by each delivery's closure.
func (n *Notifier) Notify(ctx context.Context, uris []string, token string) {
	ctx = context.WithoutCancel(ctx)
	go func() {
		ctx, cancel := context.WithTimeout(ctx, deliveryTimeout)
		defer cancel()
		var wg sync.WaitGroup
		for _, uri := range uris {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if uri == "" {
					return
				}
				n.deliver(ctx, uri, token)
			}()
		}
		wg.Wait()
	}()
}

// deliver is unexported and every call of it here carries a deadline: not reported.
func (n *Notifier) deliver(ctx context.Context, uri, token string) {
	body := url.Values{"logout_token": {token}}.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, uri, strings.NewReader(body))
	if err != nil {
		n.Logger.ErrorContext(ctx, "logout: bad request", "uri", uri, "err", err)
		return
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Cache-Control", "no-store")
	resp, err := n.client().Do(req)
	if err != nil {
		n.Logger.WarnContext(ctx, "logout: delivery failed", "uri", uri, "err", err)
		return
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		n.Logger.WarnContext(ctx, "logout: delivery rejected", "uri", uri, "status", resp.StatusCode)
	}
}
