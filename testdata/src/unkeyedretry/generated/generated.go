// Package generated has the shape of an SDK made by an OpenAPI generator: each operation
// fills a path template, builds its request with the client's prepareRequest (which parses
// the base URL and the path) and sends it in a loop of its own retries. The operations that
// only ask (check, list-objects, read) are POSTs by the API's choice; creating a store is a
// create.
package generated

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

type Configuration struct {
	APIURL     string
	HTTPClient *http.Client
	Retries    int
}

type APIClient struct {
	cfg *Configuration
}

func NewAPIClient(cfg *Configuration) *APIClient {
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: 30 * time.Second}
	}
	return &APIClient{cfg: cfg}
}

// prepareRequest builds a request for path under the configured API URL.
func (c *APIClient) prepareRequest(ctx context.Context, path, method string, body any, headers map[string]string, query url.Values) (*http.Request, error) {
	var buf io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		buf = bytes.NewReader(data)
	}
	uri, err := url.Parse(c.cfg.APIURL + path)
	if err != nil {
		return nil, err
	}
	q := uri.Query()
	for k, vs := range query {
		for _, v := range vs {
			q.Add(k, v)
		}
	}
	uri.RawQuery = q.Encode()
	req, err := http.NewRequest(method, uri.String(), buf)
	if err != nil {
		return nil, err
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	return req.WithContext(ctx), nil
}

func (c *APIClient) callAPI(req *http.Request) (*http.Response, error) {
	return c.cfg.HTTPClient.Do(req)
}

type CheckRequest struct {
	User, Relation, Object string
}

type CheckResponse struct {
	Allowed bool `json:"allowed"`
}

type StoresService struct {
	client *APIClient
}

// execute sends one operation with the service's retries, decoding the answer into out.
func (s *StoresService) execute(ctx context.Context, template, storeID string, body, out any) error {
	retries := s.client.cfg.Retries
	for i := 0; i < retries+1; i++ {
		path := template
		if storeID != "" {
			path = strings.Replace(path, "{"+"store_id"+"}", url.PathEscape(storeID), -1)
		}
		headers := map[string]string{"Content-Type": "application/json", "Accept": "application/json"}
		req, err := s.client.prepareRequest(ctx, path, http.MethodPost, body, headers, url.Values{})
		if err != nil {
			return err
		}
		resp, err := s.client.callAPI(req) // related "generated.go:87: retry loop" // want `a POST request is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return err
		}
		data, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		if resp.StatusCode >= http.StatusInternalServerError && i < retries {
			time.Sleep(time.Duration(100*(1<<i)) * time.Millisecond)
			continue
		}
		if resp.StatusCode >= http.StatusMultipleChoices {
			return fmt.Errorf("%s: %s", resp.Status, data)
		}
		return json.Unmarshal(data, out)
	}
	return fmt.Errorf("gave up after %d attempts", retries+1)
}

// Check asks whether a user has a relation to an object: POST /stores/{store_id}/check. Not
// reported.
func (s *StoresService) Check(ctx context.Context, storeID string, body CheckRequest) (CheckResponse, error) {
	var out CheckResponse
	retries := s.client.cfg.Retries
	for i := 0; i < retries+1; i++ {
		path := "/stores/{store_id}/check"
		if storeID == "" {
			return out, fmt.Errorf("storeID is required")
		}
		path = strings.Replace(path, "{"+"store_id"+"}", url.PathEscape(storeID), -1)
		headers := map[string]string{"Content-Type": "application/json", "Accept": "application/json"}
		req, err := s.client.prepareRequest(ctx, path, http.MethodPost, body, headers, url.Values{})
		if err != nil {
			return out, err
		}
		resp, err := s.client.callAPI(req)
		if err != nil {
			return out, err
		}
		data, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return out, err
		}
		if resp.StatusCode >= http.StatusInternalServerError && i < retries {
			time.Sleep(time.Duration(100*(1<<i)) * time.Millisecond)
			continue
		}
		if resp.StatusCode >= http.StatusMultipleChoices {
			return out, fmt.Errorf("check: %s: %s", resp.Status, data)
		}
		return out, json.Unmarshal(data, &out)
	}
	return out, fmt.Errorf("check: gave up after %d attempts", retries+1)
}

// ListObjects lists the objects a user has a relation to: POST
// /stores/{store_id}/list-objects. Not reported.
func (s *StoresService) ListObjects(ctx context.Context, storeID string, body CheckRequest) ([]string, error) {
	var out struct {
		Objects []string `json:"objects"`
	}
	retries := s.client.cfg.Retries
	for i := 0; i < retries+1; i++ {
		path := strings.Replace("/stores/{store_id}/list-objects", "{store_id}", url.PathEscape(storeID), -1)
		req, err := s.client.prepareRequest(ctx, path, http.MethodPost, body, map[string]string{"Accept": "application/json"}, nil)
		if err != nil {
			return nil, err
		}
		resp, err := s.client.callAPI(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode >= http.StatusInternalServerError && i < retries {
			resp.Body.Close()
			time.Sleep(time.Duration(100*(1<<i)) * time.Millisecond)
			continue
		}
		err = json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		return out.Objects, err
	}
	return nil, fmt.Errorf("list objects: gave up after %d attempts", retries+1)
}

// CreateStore creates a store: POST /stores. Reported: an answer lost to a 5xx after the
// store was made makes another one.
func (s *StoresService) CreateStore(ctx context.Context, name string) (string, error) {
	var out struct {
		ID string `json:"id"`
	}
	retries := s.client.cfg.Retries
	for i := 0; i < retries+1; i++ {
		req, err := s.client.prepareRequest(ctx, "/stores", http.MethodPost, map[string]string{"name": name}, map[string]string{"Accept": "application/json"}, nil)
		if err != nil {
			return "", err
		}
		resp, err := s.client.callAPI(req) // related "generated.go:191: retry loop" // want `a POST request is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return "", err
		}
		if resp.StatusCode >= http.StatusInternalServerError && i < retries {
			resp.Body.Close()
			time.Sleep(time.Duration(100*(1<<i)) * time.Millisecond)
			continue
		}
		err = json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		return out.ID, err
	}
	return "", fmt.Errorf("create store: gave up after %d attempts", retries+1)
}

// Write writes relation tuples: POST /stores/{store_id}/write, through execute, whose send is
// reported above (it sends what each caller's template says).
func (s *StoresService) Write(ctx context.Context, storeID string, writes []CheckRequest) error {
	return s.execute(ctx, "/stores/{store_id}/write", storeID, map[string]any{"writes": writes}, &struct{}{})
}
