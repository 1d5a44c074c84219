// Package nocontextsdk is a DNS provider's SDK written without contexts: every service method
// builds its request with the client's NewRequest and sends it with Do.
package nocontextsdk

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
)

// Doer sends requests: an *http.Client, or the caller's own.
type Doer interface {
	Do(*http.Request) (*http.Response, error)
}

type Client struct {
	httpClient Doer
	Endpoint   *url.URL
	APIKey     string
	UserAgent  string

	Zones   *ZonesService
	Records *RecordsService
}

// NewClient returns a client; a nil httpClient gets the default one.
func NewClient(httpClient Doer, endpoint, key string) (*Client, error) {
	if httpClient == nil {
		httpClient = http.DefaultClient // related "nocontextsdk.go:73: Client.Do sends a request with its caller's context through it" related "nocontextsdk.go:31: a client given here replaces the default" // want `http.DefaultClient has no Timeout as the default, so Client.Do can hang; use a client with a Timeout`
	}
	u, err := url.Parse(endpoint)
	if err != nil {
		return nil, fmt.Errorf("nocontextsdk: endpoint: %w", err)
	}
	c := &Client{httpClient: httpClient, Endpoint: u, APIKey: key, UserAgent: "nocontextsdk/1.0"}
	c.Zones = &ZonesService{c}
	c.Records = &RecordsService{c}
	return c, nil
}

// ---- Reported once, where the request is made: its callers have no context to give ----

// NewRequest builds an API request.
func (c *Client) NewRequest(method, path string, body any) (*http.Request, error) {
	rel, err := url.Parse(path)
	if err != nil {
		return nil, err
	}
	var buf io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		buf = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.Endpoint.ResolveReference(rel).String(), buf) // related "nocontextsdk.go:111: ZonesService.List sends one" related "nocontextsdk.go:124: ZonesService.Get sends one" related "nocontextsdk.go:136: ZonesService.Create sends one" related "nocontextsdk.go:149: RecordsService.Get sends one" // want `http.NewRequest gives requests no context, and 4 calls in this package send them: a stalled server hangs them`
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-API-Key", c.APIKey)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", c.UserAgent)
	return req, nil
}

// Do sends req and decodes the answer into v.
func (c *Client) Do(req *http.Request, v any) (*http.Response, error) {
	resp, err := c.httpClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return resp, fmt.Errorf("nocontextsdk: %s %s: %d %s", req.Method, req.URL.Path, resp.StatusCode, msg)
	}
	if v != nil {
		if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
			return resp, err
		}
	}
	return resp, nil
}

type Zone struct {
	Name string `json:"zone"`
	TTL  int    `json:"ttl"`
}

type Record struct {
	Domain string   `json:"domain"`
	Type   string   `json:"type"`
	Answer []string `json:"answers"`
}

type ZonesService struct{ c *Client }

type RecordsService struct{ c *Client }

func (s *ZonesService) List() ([]*Zone, *http.Response, error) {
	req, err := s.c.NewRequest(http.MethodGet, "v1/zones", nil)
	if err != nil {
		return nil, nil, err
	}
	var zl []*Zone
	resp, err := s.c.Do(req, &zl)
	if err != nil {
		return nil, resp, err
	}
	return zl, resp, nil
}

func (s *ZonesService) Get(zone string) (*Zone, *http.Response, error) {
	req, err := s.c.NewRequest(http.MethodGet, "v1/zones/"+zone, nil)
	if err != nil {
		return nil, nil, err
	}
	var z Zone
	resp, err := s.c.Do(req, &z)
	if err != nil {
		return nil, resp, err
	}
	return &z, resp, nil
}

func (s *ZonesService) Create(z *Zone) (*http.Response, error) {
	req, err := s.c.NewRequest(http.MethodPut, "v1/zones/"+z.Name, z)
	if err != nil {
		return nil, err
	}
	resp, err := s.c.Do(req, z)
	if err != nil {
		return resp, err
	}
	return resp, nil
}

func (s *RecordsService) Get(zone, domain, t string) (*Record, *http.Response, error) {
	req, err := s.c.NewRequest(http.MethodGet, fmt.Sprintf("v1/zones/%s/%s/%s", zone, domain, t), nil)
	if err != nil {
		return nil, nil, err
	}
	var r Record
	resp, err := s.c.Do(req, &r)
	if err != nil {
		return nil, resp, err
	}
	return &r, resp, nil
}

// ---- Reported at the call: this caller has a context and drops it ----

func (s *RecordsService) Delete(ctx context.Context, zone, domain, t string) (*http.Response, error) {
	req, err := s.c.NewRequest(http.MethodDelete, fmt.Sprintf("v1/zones/%s/%s/%s", zone, domain, t), nil)
	if err != nil {
		return nil, err
	}
	return s.c.Do(req, nil) // related "nocontextsdk.go:72: Client.Do passes its request's context to Doer.Do" related "nocontextsdk.go:61: http.NewRequest gives the request no context" // want `Client.Do's request has no context, so a stalled server hangs this call; make it with http.NewRequestWithContext and ctx`
}
