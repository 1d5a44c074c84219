// Package nsproviderbare makes ns1's client without a rate limit strategy: its default sends
// at once, so a loop that sends again on a 429 hammers the service. Reported.
package nsproviderbare

import (
	"log"
	"net/http"
	"time"

	"gopkg.in/ns1/ns1-go.v2/rest"
)

type provider struct {
	c *rest.Client
}

func newProvider(token string) *provider {
	return &provider{c: rest.NewClient(&http.Client{Timeout: 30 * time.Second}, rest.SetAPIKey(token))}
}

func (p *provider) add(zone, domain, typ string, answers []string) error {
	for try := 0; ; try++ { // related "nsproviderbare.go:22: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		resp, err := p.c.Records.Create(&rest.Record{Zone: zone, Domain: domain, Type: typ, Answers: answers})
		if resp != nil && resp.StatusCode == http.StatusTooManyRequests && try < 10 {
			log.Printf("rate limited adding %s %s", domain, typ)
			continue
		}
		return err
	}
}
