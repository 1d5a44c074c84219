// Package helpers: an SDK whose services build requests with NewRequest(ctx, method, path,
// body) and send them with DoWithContext, which hands them to one retryablehttp client. The
// client retries every method on transport errors and 5xx, so each create it sends can be
// repeated: one cause, reported once at the client's call, with the requests as related.
package helpers

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

type Client struct {
	client    *retryablehttp.Client
	BaseURL   *url.URL
	UserAgent string

	Instances *InstanceService
}

func New(token string) *Client {
	base, _ := url.Parse("https://api.example.com/")
	c := &Client{client: retryablehttp.NewClient(), BaseURL: base, UserAgent: "helpers-sdk/1.0"}
	c.client.HTTPClient = &http.Client{Timeout: 60 * time.Second}
	c.client.RetryMax = 3
	c.Instances = &InstanceService{c}
	return c
}

func (c *Client) NewRequest(ctx context.Context, method, uri string, body any) (*http.Request, error) {
	u, err := c.BaseURL.Parse(uri)
	if err != nil {
		return nil, err
	}
	buf := &bytes.Buffer{}
	if body != nil {
		if err := json.NewEncoder(buf).Encode(body); err != nil {
			return nil, err
		}
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), buf)
	if err != nil {
		return nil, err
	}
	req.Header.Add("User-Agent", c.UserAgent)
	req.Header.Add("Accept", "application/json")
	req.Header.Add("Content-Type", "application/json")
	return req, nil
}

func (c *Client) DoWithContext(ctx context.Context, r *http.Request, out any) (*http.Response, error) { // want DoWithContext:`resends the request of parameter 2 in retryablehttp.Client.Do \(helpers.go:64\)`
	rreq, err := retryablehttp.FromRequest(r)
	if err != nil {
		return nil, err
	}
	rreq = rreq.WithContext(ctx)
	res, err := c.client.Do(rreq) // related "helpers.go:106: a POST request sent here" "helpers.go:117: a PATCH request sent here" // want `retryablehttp\.Client\.Do retries a POST request and 1 other request without a key: a retry can repeat their effect`
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return res, err
	}
	if res.StatusCode/100 != 2 {
		return res, fmt.Errorf("%s %s: %s: %s", r.Method, r.URL.Path, res.Status, body)
	}
	if out != nil {
		return res, json.Unmarshal(body, out)
	}
	return res, nil
}

type InstanceService struct{ client *Client }

type Instance struct {
	ID     string `json:"id"`
	Region string `json:"region"`
	Label  string `json:"label"`
}

type CreateReq struct {
	Region string `json:"region"`
	Plan   string `json:"plan"`
	Label  string `json:"label"`
}

// ---- Sent through the retrying client without a key: listed at the client ----

func (s *InstanceService) Create(ctx context.Context, in *CreateReq) (*Instance, error) {
	req, err := s.client.NewRequest(ctx, http.MethodPost, "v2/instances", in)
	if err != nil {
		return nil, err
	}
	var out struct {
		Instance *Instance `json:"instance"`
	}
	if _, err := s.client.DoWithContext(ctx, req, &out); err != nil {
		return nil, err
	}
	return out.Instance, nil
}

func (s *InstanceService) Relabel(ctx context.Context, id, label string) error {
	req, err := s.client.NewRequest(ctx, http.MethodPatch, "v2/instances/"+id, map[string]string{"label": label})
	if err != nil {
		return err
	}
	_, err = s.client.DoWithContext(ctx, req, nil)
	return err
}

// ---- Idempotent methods: not listed ----

func (s *InstanceService) Get(ctx context.Context, id string) (*Instance, error) {
	req, err := s.client.NewRequest(ctx, http.MethodGet, "v2/instances/"+id, nil)
	if err != nil {
		return nil, err
	}
	var out struct {
		Instance *Instance `json:"instance"`
	}
	if _, err := s.client.DoWithContext(ctx, req, &out); err != nil {
		return nil, err
	}
	return out.Instance, nil
}

func (s *InstanceService) Delete(ctx context.Context, id string) error {
	req, err := s.client.NewRequest(ctx, http.MethodDelete, "v2/instances/"+id, nil)
	if err != nil {
		return err
	}
	_, err = s.client.DoWithContext(ctx, req, nil)
	return err
}
