package failures

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"strings"
	"time"
)

// A DNS provider whose API answers "over quota" when a tenant sends too much; the provider's
// helper goes round on that answer only, matched by its text. The API client under it sends
// again on transport errors. The helper never goes round on a transport
// error, so nothing multiplies. A helper that goes round on a timeout, matched by the text
// net/http gives it, does multiply the client's attempts.

type quotaAPI struct {
	hc        *http.Client
	endpoints []string
}


// Zone reads a zone, sending it again up to four times while the transport fails.
func (q *quotaAPI) Zone(ctx context.Context, id string) (string, error) {
	var err error
	for attempt := range 4 {
		var resp *http.Response
		resp, err = q.hc.Get(q.endpoints[0] + "/zones/" + id)
		var ne net.Error
		if errors.As(err, &ne) {
			time.Sleep(time.Duration(attempt+1) * 200 * time.Millisecond)
			continue
		}
		if err != nil {
			return "", err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return "", fmt.Errorf("zone %s: %s", id, resp.Status)
		}
		return resp.Header.Get("ETag"), nil
	}
	return "", err
}

// withQuota goes round only on the API's "over quota" answer.
func withQuota(f func() error) {
	const most = 20
	tries := 0
	for {
		err := f()
		if err == nil {
			return
		}
		if strings.Contains(err.Error(), "over quota") {
			tries++
			if tries >= most {
				return
			}
			log.Printf("over quota, waiting")
			time.Sleep(3 * time.Second)
		} else {
			return
		}
	}
}

// withTimeouts goes round when the error says the transport timed out.
func withTimeouts(f func() error) {
	for range 5 {
		err := f()
		if err == nil || !strings.Contains(err.Error(), "i/o timeout") {
			return
		}
		time.Sleep(2 * time.Second)
	}
}

type zoneProvider struct{ api *quotaAPI }

// Serial: the quota helper around a client that retries transport errors. Not reported.
func (p *zoneProvider) Serial(ctx context.Context, id string) (string, error) {
	var tag string
	var err error
	withQuota(func() error {
		tag, err = p.api.Zone(ctx, id)
		return err
	})
	if err != nil {
		return "", err
	}
	return tag, nil
}

// SerialThroughTimeouts: a helper that goes round on timeouts around the same client.
func (p *zoneProvider) SerialThroughTimeouts(ctx context.Context, id string) (string, error) {
	var tag string
	var err error
	withTimeouts(func() error {
		tag, err = p.api.Zone(ctx, id) // related "textmatch.go:102: outer retry callback", "textmatch.go:29: inner retry loop" // want `5 attempts around quotaAPI.Zone, which makes 4 each: up to 20 calls on transport errors; keep one layer`
		return err
	})
	return tag, err
}
