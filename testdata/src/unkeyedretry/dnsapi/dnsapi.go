// Package dnsapi is an SDK of a DNS hosting API in the shape such SDKs take: options with a
// default retry count, a go-retryablehttp client behind an interface field (a seam for
// tests), and one method per endpoint, each sending through that field.
package dnsapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

const defaultBaseURL = "https://dns.example.com/api/v1/"

// Options configure a Client.
type Options struct {
	HTTPClient *http.Client
	RetryMax   int
	Logger     any
}

// DefaultOptions returns the options most users pass.
func DefaultOptions() Options {
	return Options{HTTPClient: &http.Client{Timeout: 10 * time.Second}, RetryMax: 5}
}

type doer interface {
	Do(*http.Request) (*http.Response, error)
}

// Client talks to the DNS API.
type Client struct {
	BaseURL string
	http    doer
	token   string
}

// New makes a Client: go-retryablehttp retries every method on 5xx and connection errors.
func New(token string, opts Options) *Client {
	rc := retryablehttp.NewClient() // related "dnsapi.go:116: a POST request sent here" "dnsapi.go:149: a POST request sent here" "dnsapi.go:170: a PATCH request sent here" "dnsapi.go:188: a POST request sent here" // want `the client configured here retries a POST request and 3 other requests without a key: a retry can repeat their effect`
	rc.RetryMax = opts.RetryMax
	rc.HTTPClient = opts.HTTPClient
	rc.Logger = opts.Logger
	return &Client{BaseURL: defaultBaseURL, http: rc.StandardClient(), token: token}
}

// Domain is a zone.
type Domain struct {
	Name    string    `json:"name"`
	Created time.Time `json:"created,omitempty"`
}

// RRSet is a record set.
type RRSet struct {
	SubName string   `json:"subname"`
	Type    string   `json:"type"`
	TTL     int      `json:"ttl,omitempty"`
	Records []string `json:"records"`
}

// APIError is an answer other than the one expected.
type APIError struct {
	Status int
	Body   string
}

func (e *APIError) Error() string { return fmt.Sprintf("dns api: %d: %s", e.Status, e.Body) }

func (c *Client) newRequest(ctx context.Context, method, path string, body any) (*http.Request, error) {
	u, err := url.JoinPath(c.BaseURL, path)
	if err != nil {
		return nil, fmt.Errorf("endpoint: %w", err)
	}
	buf := new(bytes.Buffer)
	if body != nil {
		if err := json.NewEncoder(buf).Encode(body); err != nil {
			return nil, fmt.Errorf("encode: %w", err)
		}
	}
	req, err := http.NewRequestWithContext(ctx, method, u, buf)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if c.token != "" {
		req.Header.Set("Authorization", "Token "+c.token)
	}
	return req, nil
}

func decode(resp *http.Response, want int, out any) error {
	if resp.StatusCode != want {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return &APIError{Status: resp.StatusCode, Body: string(b)}
	}
	if out == nil {
		return nil
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// CreateDomain creates a zone: sent again after a lost answer, it fails with 409 though the
// zone was made.
func (c *Client) CreateDomain(ctx context.Context, name string) (*Domain, error) {
	req, err := c.newRequest(ctx, http.MethodPost, "/domains/", Domain{Name: name})
	if err != nil {
		return nil, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("create domain %s: %w", name, err)
	}
	defer resp.Body.Close()
	var d Domain
	if err := decode(resp, http.StatusCreated, &d); err != nil {
		return nil, err
	}
	return &d, nil
}

// GetDomain reads a zone: a GET, safe to retry.
func (c *Client) GetDomain(ctx context.Context, name string) (*Domain, error) {
	req, err := c.newRequest(ctx, http.MethodGet, "/domains/"+name+"/", nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("get domain %s: %w", name, err)
	}
	defer resp.Body.Close()
	var d Domain
	return &d, decode(resp, http.StatusOK, &d)
}

// CreateRRSet adds a record set.
func (c *Client) CreateRRSet(ctx context.Context, domain string, rr RRSet) (*RRSet, error) {
	req, err := c.newRequest(ctx, http.MethodPost, "/domains/"+domain+"/rrsets/", rr)
	if err != nil {
		return nil, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("create rrset: %w", err)
	}
	defer resp.Body.Close()
	var out RRSet
	if err := decode(resp, http.StatusCreated, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// UpdateRRSet changes a record set's records.
func (c *Client) UpdateRRSet(ctx context.Context, domain, sub, typ string, records []string) (*RRSet, error) {
	if sub == "" {
		sub = "@"
	}
	req, err := c.newRequest(ctx, http.MethodPatch, "/domains/"+domain+"/rrsets/"+sub+"/"+typ+"/", RRSet{Records: records})
	if err != nil {
		return nil, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("update rrset: %w", err)
	}
	defer resp.Body.Close()
	var out RRSet
	if err := decode(resp, http.StatusOK, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// CreateToken mints an API token.
func (c *Client) CreateToken(ctx context.Context, name string) (string, error) {
	req, err := c.newRequest(ctx, http.MethodPost, "/auth/tokens/", map[string]string{"name": name})
	if err != nil {
		return "", err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return "", fmt.Errorf("create token: %w", err)
	}
	defer resp.Body.Close()
	var out struct {
		Token string `json:"token"`
	}
	if err := decode(resp, http.StatusCreated, &out); err != nil {
		return "", err
	}
	return out.Token, nil
}

// DeleteDomain removes a zone: a DELETE, which the server applies once.
func (c *Client) DeleteDomain(ctx context.Context, name string) error {
	req, err := c.newRequest(ctx, http.MethodDelete, "/domains/"+name+"/", nil)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("delete domain %s: %w", name, err)
	}
	defer resp.Body.Close()
	return decode(resp, http.StatusNoContent, nil)
}

// ---- Not reported ----

// Mirror copies zones to a secondary provider through a plain client kept behind the same
// kind of seam: one attempt per call.
type Mirror struct {
	base string
	http doer
}

// NewMirror makes a Mirror.
func NewMirror(base string) *Mirror {
	return &Mirror{base: base, http: &http.Client{Timeout: 15 * time.Second}}
}

// Push creates the zone on the secondary.
func (m *Mirror) Push(ctx context.Context, d Domain) error { // want Push:"sends POST /zones without an idempotency key"
	body, err := json.Marshal(d)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, m.base+"/zones", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := m.http.Do(req)
	if err != nil {
		return fmt.Errorf("mirror %s: %w", d.Name, err)
	}
	defer resp.Body.Close()
	return decode(resp, http.StatusCreated, nil)
}
