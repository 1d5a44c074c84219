// Package usedoerlib is a registry adapter that sends through doerlib's wrapper, built with
// an http.Client of its own: the wrapper's requests have no context, so that client's Timeout
// is what bounds them.
package usedoerlib

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"time"

	"notimeout/doerlib"
)

type config struct {
	URL      string
	Insecure bool
	Timeout  time.Duration
}

type basicAuth struct{ user, password string }

func (a basicAuth) Modify(req *http.Request) error {
	req.SetBasicAuth(a.user, a.password)
	return nil
}

func clientTimeout(cfg config) time.Duration {
	if cfg.Timeout <= 0 {
		return 30 * time.Second
	}
	return cfg.Timeout
}

// ---- Not reported: the wrapper sends through a client with a Timeout ----

type adapter struct {
	url    string
	client *doerlib.Client
}

func newAdapter(cfg config, user, password string) *adapter {
	return &adapter{
		url: cfg.URL,
		client: doerlib.NewClient(
			&http.Client{
				Transport: http.DefaultTransport,
				Timeout:   clientTimeout(cfg),
			},
			basicAuth{user, password},
		),
	}
}

type namespace struct {
	Name   string `json:"name"`
	Public bool   `json:"public"`
}

func (a *adapter) createNamespace(ns namespace) error {
	b, err := json.Marshal(ns)
	if err != nil {
		return err
	}
	req, err := http.NewRequest(http.MethodPost, a.url+"/api/v1/organization/", bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := a.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		return fmt.Errorf("create namespace %s: %s", ns.Name, resp.Status)
	}
	log.Printf("namespace %s created", ns.Name)
	return nil
}

func (a *adapter) listNamespaces() ([]namespace, error) {
	var out []namespace
	for page := 1; ; page++ {
		req, err := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/api/v1/organization/?page=%d", a.url, page), nil)
		if err != nil {
			return nil, err
		}
		var batch []namespace
		if err := a.client.GetJSON(req, &batch); err != nil {
			return nil, err
		}
		if len(batch) == 0 {
			return out, nil
		}
		out = append(out, batch...)
	}
}

// ---- Reported: the wrapper sends through a client without a Timeout ----

type untimed struct {
	url    string
	client *doerlib.Client
}

func newUntimed(cfg config) *untimed {
	return &untimed{url: cfg.URL, client: doerlib.NewClient(&http.Client{Transport: http.DefaultTransport})}
}

func (u *untimed) ping() error {
	req, err := http.NewRequest(http.MethodGet, u.url+"/v2/", nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := u.client.Do(req) // related "doerlib.go:36: Client.Do passes its request's context to Client.Do" "usedoerlib.go:115: http.NewRequest gives the request no context" // want `Client\.Do passes a request without a deadline to Client\.Do, so a stalled server hangs this call; use context\.WithTimeout`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
