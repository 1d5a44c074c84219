// Package nsprovider pushes DNS records through ns1's client, made with its sleeping rate
// limit strategy: after every answer the client waits until the window lets the next request
// through, so the loops that send again on a 429 wait too. Not reported.
package nsprovider

import (
	"errors"
	"fmt"
	"log"
	"net/http"
	"time"

	"gopkg.in/ns1/ns1-go.v2/rest"
)

const tries = 10

type provider struct {
	*rest.Client
}

func newProvider(token string) (*provider, error) {
	if token == "" {
		return nil, errors.New("api_token required")
	}
	return &provider{rest.NewClient(
		&http.Client{Timeout: 30 * time.Second},
		rest.SetAPIKey(token),
		func(c *rest.Client) {
			c.RateLimitStrategySleep()
		},
	)}, nil
}

func (p *provider) add(zone, domain, typ string, answers []string) error {
	for try := 0; ; try++ {
		resp, err := p.Records.Create(&rest.Record{Zone: zone, Domain: domain, Type: typ, Answers: answers})
		if resp != nil && resp.StatusCode == http.StatusTooManyRequests && try < tries {
			log.Printf("rate limited adding %s %s", domain, typ)
			continue
		}
		return err
	}
}

func (p *provider) remove(zone, domain, typ string) error {
	for try := 0; ; try++ {
		resp, err := p.Records.Delete(zone, domain, typ)
		if resp != nil && resp.StatusCode == http.StatusTooManyRequests && try < tries {
			continue
		}
		if err != nil {
			return fmt.Errorf("remove %s %s: %w", domain, typ, err)
		}
		return nil
	}
}

func (p *provider) zones() ([]string, error) {
	for try := 0; ; try++ {
		zs, resp, err := p.Zones.List()
		if resp != nil && resp.StatusCode == http.StatusTooManyRequests && try < tries {
			continue
		}
		return zs, err
	}
}
