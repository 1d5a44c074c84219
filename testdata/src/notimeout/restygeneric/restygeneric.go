// Package restygeneric is an SDK of a device-management API over resty v2. Its client is made
// by NewClient without a timeout and kept in the services' shared struct; every operation
// sends through generic request helpers (GET[Q], DELETE[Q]) and plain ones (POST), inside a
// closure that a generic retry helper runs. The helpers are instances of generic functions:
// the model reads the generic body to see that they only send through the client they are
// given. One cause, reported where the client is made.
package restygeneric

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"time"

	"github.com/go-resty/resty/v2"
)

const perPage = 500

type service struct {
	client  *resty.Client
	retries int
}

// Client is the API's client; its services share one resty client.
type Client struct {
	common  service
	Devices *DevicesService
	Orgs    *OrgsService
}

// DevicesService manages devices.
type DevicesService service

// OrgsService manages organizations.
type OrgsService service

// NewClient makes a client from the environment.
func NewClient() (*Client, error) {
	rc := resty.New() // related "restygeneric.go:149: GET sends a request without a context through it" related "restygeneric.go:158: POST sends a request without a context through it" related "restygeneric.go:166: DELETE sends a request without a context through it" // want `this resty\.Client has no timeout \(SetTimeout\), so a stalled server hangs GET \(and 2 other calls\)`
	c := &Client{}
	c.common.client = rc
	base := os.Getenv("DEVAPI_BASE_URL")
	if base == "" {
		return nil, errors.New("DEVAPI_BASE_URL is not set")
	}
	rc.SetBaseURL(base)
	c.SetAuthToken(os.Getenv("DEVAPI_TOKEN"))
	c.common.retries = 3
	if v := os.Getenv("DEVAPI_RETRIES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("DEVAPI_RETRIES: %q is not a count", v)
		}
		c.common.retries = n
	}
	c.Devices = (*DevicesService)(&c.common)
	c.Orgs = (*OrgsService)(&c.common)
	return c, nil
}

// SetAuthToken sets the bearer token sent with every request.
func (c *Client) SetAuthToken(token string) {
	c.common.client.SetHeader("Authorization", "Bearer "+token)
}

// RestyClient returns the resty client, for callers that need to adjust it.
func (c *Client) RestyClient() *resty.Client { return c.common.client }

// Device is a managed device.
type Device struct {
	Serial string `json:"serial"`
	Name   string `json:"name"`
	Model  string `json:"model"`
}

// ListParams filter a device listing.
type ListParams struct {
	Model   string
	PerPage int
}

func (p *ListParams) values() url.Values {
	v := url.Values{}
	if p == nil {
		return v
	}
	if p.Model != "" {
		v.Set("model", p.Model)
	}
	n := p.PerPage
	if n <= 0 || n > perPage {
		n = perPage
	}
	v.Set("perPage", strconv.Itoa(n))
	return v
}

type valuer interface{ values() url.Values }

// GET sends a GET with the query of params.
func GET[Q valuer](path string, client *resty.Client, params Q) (*resty.Response, error) {
	return client.R().
		SetHeader("Accept", "application/json").
		SetHeader("Content-Type", "application/json").
		SetQueryString(params.values().Encode()).
		Get(path)
}

// POST sends a POST with body.
func POST(path string, client *resty.Client, body any) (*resty.Response, error) {
	req := client.R().
		SetHeader("Accept", "application/json").
		SetHeader("Content-Type", "application/json")
	if body != nil {
		req.SetBody(body)
	}
	return req.Post(path)
}

// DELETE sends a DELETE with the query of params.
func DELETE[Q valuer](path string, client *resty.Client, params Q) (*resty.Response, error) {
	return client.R().SetQueryString(params.values().Encode()).Delete(path)
}

// withRetries runs call until it gets an answer other than 429, at most retries+1 times.
func withRetries[T any](call func() (*resty.Response, error), retries int, out *T) (*resty.Response, error) {
	for attempt := 0; ; attempt++ {
		resp, err := call()
		if err != nil {
			return resp, err
		}
		if resp.StatusCode() != 429 || attempt >= retries {
			if resp.IsError() {
				return resp, fmt.Errorf("devapi: status %d", resp.StatusCode())
			}
			return resp, nil
		}
		time.Sleep(time.Duration(attempt+1) * time.Second)
	}
}

// List lists the devices of an organization.
func (s *DevicesService) List(org string, params *ListParams) ([]Device, *resty.Response, error) {
	var out []Device
	resp, err := withRetries(func() (*resty.Response, error) {
		return GET("/orgs/"+url.PathEscape(org)+"/devices", s.client, params)
	}, s.retries, &out)
	return out, resp, err
}

// Claim claims a device into an organization.
func (s *DevicesService) Claim(org, serial string) (*resty.Response, error) {
	var out struct{}
	return withRetries(func() (*resty.Response, error) {
		return POST("/orgs/"+url.PathEscape(org)+"/claim", s.client, map[string]string{"serial": serial})
	}, s.retries, &out)
}

// Remove removes a device from an organization.
func (s *OrgsService) Remove(org, serial string) (*resty.Response, error) {
	var out struct{}
	return withRetries(func() (*resty.Response, error) {
		return DELETE("/orgs/"+url.PathEscape(org)+"/devices/"+url.PathEscape(serial), s.client, (*ListParams)(nil))
	}, s.retries, &out)
}
