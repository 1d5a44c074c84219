// Package rest is a stand-in for ns1-go's REST client: a Client whose Do calls its
// RateLimitFunc after every answer; RateLimitStrategySleep makes that wait out the window.
package rest

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"
)

type Doer interface {
	Do(*http.Request) (*http.Response, error)
}

type RateLimit struct {
	Limit, Remaining, Period int
}

func (rl RateLimit) WaitTimeRemaining() time.Duration {
	if rl.Remaining <= 0 {
		return time.Duration(rl.Period) * time.Second
	}
	return time.Duration(rl.Period/rl.Remaining) * time.Second
}

type Client struct {
	httpClient    Doer
	Endpoint      string
	APIKey        string
	RateLimitFunc func(RateLimit)
	Records       *RecordsService
	Zones         *ZonesService
}

func NewClient(httpClient Doer, options ...func(*Client)) *Client {
	c := &Client{httpClient: httpClient, Endpoint: "https://api.nsone.net/v1/", RateLimitFunc: func(RateLimit) {}}
	c.Records = &RecordsService{client: c}
	c.Zones = &ZonesService{client: c}
	for _, o := range options {
		o(c)
	}
	return c
}

func SetAPIKey(key string) func(*Client) { return func(c *Client) { c.APIKey = key } }

func (c *Client) RateLimitStrategySleep() {
	c.RateLimitFunc = func(rl RateLimit) { time.Sleep(rl.WaitTimeRemaining()) }
}

func (c Client) Do(req *http.Request, v any) (*http.Response, error) {
	req.Header.Set("X-NSONE-Key", c.APIKey)
	resp, err := c.httpClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	limit, _ := strconv.Atoi(resp.Header.Get("X-Ratelimit-Limit"))
	remaining, _ := strconv.Atoi(resp.Header.Get("X-Ratelimit-Remaining"))
	period, _ := strconv.Atoi(resp.Header.Get("X-Ratelimit-Period"))
	c.RateLimitFunc(RateLimit{Limit: limit, Remaining: remaining, Period: period})
	if resp.StatusCode >= 300 {
		return resp, &Error{Resp: resp}
	}
	if v != nil {
		return resp, json.NewDecoder(resp.Body).Decode(v)
	}
	return resp, nil
}

type Error struct{ Resp *http.Response }

func (e *Error) Error() string { return "ns1: " + e.Resp.Status }

type Record struct {
	Zone, Domain, Type string
	Answers            []string
}

type RecordsService struct{ client *Client }

func (s *RecordsService) Create(r *Record) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodPut, s.client.Endpoint+"zones/"+r.Zone+"/"+r.Domain+"/"+r.Type, nil)
	if err != nil {
		return nil, err
	}
	return s.client.Do(req, r)
}

func (s *RecordsService) Delete(zone, domain, t string) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodDelete, s.client.Endpoint+"zones/"+zone+"/"+domain+"/"+t, nil)
	if err != nil {
		return nil, err
	}
	return s.client.Do(req, nil)
}

type ZonesService struct{ client *Client }

func (s *ZonesService) List() ([]string, *http.Response, error) {
	req, err := http.NewRequest(http.MethodGet, s.client.Endpoint+"zones", nil)
	if err != nil {
		return nil, nil, err
	}
	var zones []string
	resp, err := s.client.Do(req, &zones)
	return zones, resp, err
}
