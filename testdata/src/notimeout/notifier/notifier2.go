package notifier

import (
	"context"
	"net/http"
)

// Pinger sends with its caller's context through a default client without a Timeout, from an
// exported method: its callers are unknown, so the default is reported.
type Pinger struct {
	HTTPClient *http.Client
}

func (p *Pinger) client() *http.Client {
	if p.HTTPClient != nil {
		return p.HTTPClient
	}
	return &http.Client{} // related "notifier2.go:26: Pinger.Ping sends a request with its caller's context through it" "notifier2.go:16: a client given here replaces the default" // want `this http\.Client has no Timeout by default, so Pinger\.Ping can hang unless callers set deadlines; set a default Timeout`
}

func (p *Pinger) Ping(ctx context.Context, uri string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, uri, nil)
	if err != nil {
		return err
	}
	resp, err := p.client().Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
