// Package genmonitors is a generated API package: each operation prepares its request with the
// client package and sends it with CallAPI, which retries 429 and 5xx whatever the method. The
// POST that creates and the PATCH are one finding, at the first; the GET, the PUT, the POST
// that validates (a question), the keyed POST and the POST sent through the client's helper
// that retries only GET and PUT are not reported.
package genmonitors

import (
	"context"
	"net/http"
	"net/url"

	client "unkeyedretry/genclient"
)

type Monitor struct {
	ID    int64  `json:"id,omitempty"`
	Name  string `json:"name"`
	Query string `json:"query"`
}

type MonitorsApi struct {
	Client *client.APIClient
}

func (a *MonitorsApi) CreateMonitor(ctx context.Context, body Monitor) (Monitor, *http.Response, error) {
	var (
		method = http.MethodPost
		result Monitor
	)
	headers := map[string]string{"Content-Type": "application/json", "Accept": "application/json"}
	req, err := a.Client.PrepareRequest(ctx, "/api/v1/monitor", method, body, headers, url.Values{})
	if err != nil {
		return result, nil, err
	}
	resp, err := a.Client.CallAPI(req) // related "genmonitors.go:82: a PATCH request handed to it here" // want `APIClient.CallAPI retries POST /api/v1/monitor and 1 other request without a key, so a retry can repeat their effect`
	if err != nil || resp == nil {
		return result, resp, err
	}
	err = client.Decode(resp, &result)
	return result, resp, err
}

func (a *MonitorsApi) GetMonitor(ctx context.Context, id string) (Monitor, *http.Response, error) {
	var result Monitor
	req, err := a.Client.PrepareRequest(ctx, "/api/v1/monitor/"+url.PathEscape(id), http.MethodGet, nil, map[string]string{"Accept": "application/json"}, url.Values{})
	if err != nil {
		return result, nil, err
	}
	resp, err := a.Client.CallAPI(req)
	if err != nil || resp == nil {
		return result, resp, err
	}
	err = client.Decode(resp, &result)
	return result, resp, err
}

func (a *MonitorsApi) ValidateMonitor(ctx context.Context, body Monitor) (*http.Response, error) {
	headers := map[string]string{"Content-Type": "application/json"}
	req, err := a.Client.PrepareRequest(ctx, "/api/v1/monitor/validate", http.MethodPost, body, headers, url.Values{})
	if err != nil {
		return nil, err
	}
	return a.Client.CallAPI(req)
}

func (a *MonitorsApi) UpdateMonitor(ctx context.Context, id string, body Monitor) (*http.Response, error) {
	headers := map[string]string{"Content-Type": "application/json"}
	req, err := a.Client.PrepareRequest(ctx, "/api/v1/monitor/"+url.PathEscape(id), http.MethodPut, body, headers, url.Values{})
	if err != nil {
		return nil, err
	}
	return a.Client.CallAPI(req)
}

func (a *MonitorsApi) PatchMonitor(ctx context.Context, id string, fields map[string]any) (*http.Response, error) {
	headers := map[string]string{"Content-Type": "application/merge-patch+json"}
	req, err := a.Client.PrepareRequest(ctx, "/api/v1/monitor/"+url.PathEscape(id), http.MethodPatch, fields, headers, url.Values{})
	if err != nil {
		return nil, err
	}
	return a.Client.CallAPI(req)
}

// MuteMonitor goes through the client's method-aware helper: a POST is not retried there.
func (a *MonitorsApi) MuteMonitor(ctx context.Context, id string) (*http.Response, error) {
	req, err := a.Client.PrepareRequest(ctx, "/api/v1/monitor/"+url.PathEscape(id)+"/mute", http.MethodPost, nil, nil, url.Values{})
	if err != nil {
		return nil, err
	}
	return a.Client.CallIdempotent(req)
}

// CreateDowntime sends its key: the API deduplicates it.
func (a *MonitorsApi) CreateDowntime(ctx context.Context, body Monitor, key string) (*http.Response, error) {
	headers := map[string]string{"Content-Type": "application/json", "Idempotency-Key": key}
	req, err := a.Client.PrepareRequest(ctx, "/api/v1/downtime", http.MethodPost, body, headers, url.Values{})
	if err != nil {
		return nil, err
	}
	return a.Client.CallAPI(req)
}
