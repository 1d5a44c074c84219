// Package alwaysset holds admin clients whose HTTP client falls back to http.DefaultClient when
// nil. Whether that fallback can run depends on the constructors: a type only this package can
// make, and that each of its constructors gives a client, never reaches it.
package alwaysset

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

type Topic struct {
	Name       string `json:"name"`
	Partitions int    `json:"partitions"`
}

// adminClient is made only by NewAdmin, which always gives it a client with a timeout.
type adminClient struct {
	baseURL   string
	userAgent string
	HTTP      *http.Client
}

func NewAdmin(baseURL string, timeout time.Duration, rt http.RoundTripper) *adminClient {
	c := &adminClient{baseURL: strings.TrimSuffix(baseURL, "/"), userAgent: "admin/1.0"}
	hc := &http.Client{Timeout: timeout}
	if rt != nil {
		hc.Transport = rt
	}
	c.HTTP = hc
	return c
}

func (c *adminClient) do(req *http.Request) (*http.Response, error) {
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	return hc.Do(req)
}

// Topics lists the topics; the request has no context, the client's timeout bounds it.
func (c *adminClient) Topics() ([]Topic, error) {
	req, err := http.NewRequest(http.MethodGet, c.baseURL+"/admin/v2/topics", nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.do(req)
	if err != nil {
		return nil, fmt.Errorf("list topics: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
		return nil, fmt.Errorf("list topics: %s: %s", resp.Status, b)
	}
	var out []Topic
	return out, json.NewDecoder(resp.Body).Decode(&out)
}

// lookupClient is also made by NewLookup, which leaves the client nil unless one is given: its
// fallback runs.
type lookupClient struct {
	baseURL string
	hc      *http.Client
}

func NewAdminLookup(baseURL string) *lookupClient {
	return &lookupClient{baseURL: baseURL}
}

func NewLookupWith(baseURL string, hc *http.Client) *lookupClient {
	return &lookupClient{baseURL: baseURL, hc: hc}
}

func (c *lookupClient) Lookup(topic string) (string, error) {
	req, err := http.NewRequest(http.MethodGet, c.baseURL+"/lookup/v2/topic/"+topic, nil)
	if err != nil {
		return "", err
	}
	hc := c.hc
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req) // related "alwaysset.go:88: http.DefaultClient is the default when no client is given" "alwaysset.go:77: a client given here replaces the default" "alwaysset.go:82: http.NewRequest gives the request no context" // want `the default, http\.DefaultClient, has no Timeout and the request has no context, so a stalled server hangs this call`
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var out struct {
		BrokerURL string `json:"brokerUrl"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return "", err
	}
	return out.BrokerURL, nil
}
