// Package scaleplugin asks an external scaling plugin for a function's replicas, and to set
// them, over HTTP. A query keeps its http.Client by value in an exported field, made by the
// constructor with a dial timeout only: a plugin that accepts the connection and then stalls
// hangs every query, and the requests carry no context.
package scaleplugin

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"time"
)

type Status struct {
	Name      string `json:"name"`
	Replicas  uint64 `json:"replicas"`
	Available uint64 `json:"availableReplicas"`
}

// Injector adds the gateway's credentials to a request.
type Injector interface {
	Inject(r *http.Request)
}

// PluginQuery is what the scaler asks: the plugin's URL and the client that reaches it.
type PluginQuery struct {
	URL       url.URL
	Client    http.Client
	Auth      Injector
	WithUsage bool
}

// NewPluginQuery makes a query with a short dial timeout and no keep-alives.
func NewPluginQuery(u url.URL, auth Injector) PluginQuery {
	timeout := 3 * time.Second
	client := http.Client{ // related "scaleplugin.go:69: Client.Do sends a request without a context through it" "scaleplugin.go:61: http.NewRequest gives the request no context" "scaleplugin.go:100: Client.Do sends a request without a context through it" "scaleplugin.go:92: http.NewRequest gives the request no context" // want `this http\.Client has no Timeout, so a stalled server hangs Client\.Do \(and 1 other call\); set Timeout`
		Transport: &http.Transport{
			Proxy: http.ProxyFromEnvironment,
			DialContext: (&net.Dialer{
				Timeout:   timeout,
				KeepAlive: 0,
			}).DialContext,
			MaxIdleConns:      1,
			DisableKeepAlives: true,
			IdleConnTimeout:   120 * time.Millisecond,
		},
	}
	return PluginQuery{URL: u, Client: client, Auth: auth}
}

// Replicas asks for a function's replica count.
func (q PluginQuery) Replicas(name, namespace string) (Status, error) {
	var st Status
	u := fmt.Sprintf("%ssystem/function/%s?namespace=%s&usage=%v", q.URL.String(), name, namespace, q.WithUsage)
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		return st, err
	}
	if q.Auth != nil {
		q.Auth.Inject(req)
	}
	start := time.Now()
	res, err := q.Client.Do(req)
	if err != nil {
		log.Printf("replicas of %s: %v", name, err)
		return st, err
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		return st, fmt.Errorf("replicas of %s: status %d: %s", name, res.StatusCode, body)
	}
	if err := json.Unmarshal(body, &st); err != nil {
		return st, fmt.Errorf("replicas of %s: %w", name, err)
	}
	log.Printf("replicas of %s: %d in %s", name, st.Replicas, time.Since(start))
	return st, nil
}

// Scale sets a function's replica count.
func (q PluginQuery) Scale(name, namespace string, replicas uint64) error {
	payload, err := json.Marshal(map[string]any{"serviceName": name, "namespace": namespace, "replicas": replicas})
	if err != nil {
		return err
	}
	req, err := http.NewRequest(http.MethodPost, q.URL.String()+"system/scale-function/"+name, bytes.NewReader(payload))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if q.Auth != nil {
		q.Auth.Inject(req)
	}
	res, err := q.Client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode >= 300 {
		return fmt.Errorf("scale %s: status %d", name, res.StatusCode)
	}
	return nil
}

// ---- Not reported: the client by value has a Timeout, or each request a deadline ----

// BoundedQuery keeps a client whose Timeout bounds every request.
type BoundedQuery struct {
	URL    url.URL
	Client http.Client
}

func NewBoundedQuery(u url.URL) BoundedQuery {
	client := http.Client{
		Timeout:   5 * time.Second,
		Transport: &http.Transport{Proxy: http.ProxyFromEnvironment, MaxIdleConns: 1},
	}
	return BoundedQuery{URL: u, Client: client}
}

func (q BoundedQuery) Replicas(name string) (Status, error) {
	var st Status
	req, err := http.NewRequest(http.MethodGet, q.URL.String()+"system/function/"+name, nil)
	if err != nil {
		return st, err
	}
	res, err := q.Client.Do(req)
	if err != nil {
		return st, err
	}
	defer res.Body.Close()
	return st, json.NewDecoder(res.Body).Decode(&st)
}

// DeadlineQuery keeps a client without a Timeout, but gives each request a deadline.
type DeadlineQuery struct {
	URL    url.URL
	Client http.Client
}

func NewDeadlineQuery(u url.URL) DeadlineQuery {
	client := http.Client{Transport: &http.Transport{Proxy: http.ProxyFromEnvironment}}
	return DeadlineQuery{URL: u, Client: client}
}

func (q DeadlineQuery) Replicas(name string) (Status, error) {
	var st Status
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, q.URL.String()+"system/function/"+name, nil)
	if err != nil {
		return st, err
	}
	res, err := q.Client.Do(req)
	if err != nil {
		return st, err
	}
	defer res.Body.Close()
	return st, json.NewDecoder(res.Body).Decode(&st)
}
