// Package zoneprovider keeps DNS records of an appliance's zone in step with a cluster's
// endpoints, through the appliance's JSON API.
package zoneprovider

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	"notimeout/instrument"
)

// Config says where the appliance is.
type Config struct {
	Server   string
	Password string
	Insecure bool
}

type client struct {
	cfg  Config
	http *http.Client
	sid  string
	log  *slog.Logger
}

// ErrNoServer is returned when the configuration names no server.
var ErrNoServer = errors.New("zoneprovider: no server")

func newClient(cfg Config, log *slog.Logger) (*client, error) {
	if cfg.Server == "" {
		return nil, ErrNoServer
	}
	hc := &http.Client{ // related "zoneprovider.go:128: client.do sends a request with its caller's context through it" // want `this http\.Client has no Timeout by default, so client\.do can hang unless callers set deadlines; set a default Timeout`
		Transport: &http.Transport{
			TLSClientConfig: &tls.Config{InsecureSkipVerify: cfg.Insecure},
		},
	}
	c := &client{cfg: cfg, http: instrument.Client(hc), log: log}
	if cfg.Password != "" {
		// The constructor has no context to give: the client's missing Timeout is the
		// cause, reported above, not this call.
		if err := c.login(context.Background()); err != nil {
			return nil, fmt.Errorf("logging in to %s: %w", cfg.Server, err)
		}
	}
	return c, nil
}

func (c *client) login(ctx context.Context) error {
	b, err := json.Marshal(map[string]string{"password": c.cfg.Password})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.cfg.Server+"/api/auth", bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	body, err := c.do(req)
	if err != nil {
		return err
	}
	var out struct {
		Session string `json:"sid"`
	}
	if err := json.Unmarshal(body, &out); err != nil {
		return fmt.Errorf("decoding session: %w", err)
	}
	c.sid = out.Session
	c.log.Debug("logged in", "server", c.cfg.Server)
	return nil
}

// Record is one DNS record.
type Record struct {
	Name   string `json:"name"`
	Type   string `json:"type"`
	Target string `json:"target"`
}

func (c *client) records(ctx context.Context, kind string) ([]Record, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.cfg.Server+"/api/records/"+kind, nil)
	if err != nil {
		return nil, err
	}
	body, err := c.do(req)
	if err != nil {
		return nil, fmt.Errorf("listing %s records: %w", kind, err)
	}
	var out struct {
		Records []Record `json:"records"`
	}
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, fmt.Errorf("decoding %s records: %w", kind, err)
	}
	return out.Records, nil
}

func (c *client) apply(ctx context.Context, method string, r Record) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, method, c.cfg.Server+"/api/records", bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if _, err := c.do(req); err != nil {
		return fmt.Errorf("%s %s: %w", method, r.Name, err)
	}
	c.log.Info("record applied", "method", method, "name", r.Name)
	return nil
}

func (c *client) do(req *http.Request) ([]byte, error) {
	if c.sid != "" {
		req.Header.Set("X-Session", c.sid)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("%s: %s", resp.Status, bytes.TrimSpace(body))
	}
	return body, nil
}

// Provider applies endpoint changes.
type Provider struct {
	c *client
}

// New returns a provider for cfg.
func New(cfg Config, log *slog.Logger) (*Provider, error) {
	c, err := newClient(cfg, log)
	if err != nil {
		return nil, err
	}
	return &Provider{c: c}, nil
}

// Sync makes the zone's A records the given ones.
func (p *Provider) Sync(ctx context.Context, want []Record) error {
	have, err := p.c.records(ctx, "A")
	if err != nil {
		return err
	}
	seen := make(map[string]bool, len(have))
	for _, r := range have {
		seen[r.Name] = true
	}
	for _, r := range want {
		if seen[r.Name] {
			continue
		}
		if err := p.c.apply(ctx, http.MethodPut, r); err != nil {
			return err
		}
	}
	return nil
}

// metrics reads the appliance's counters through a client given a timeout by the helper: not
// reported.
type metrics struct {
	hc *http.Client
}

func newMetrics() *metrics {
	return &metrics{hc: instrument.Bounded(&http.Client{}, 10*time.Second)}
}

func (m *metrics) scrape(ctx context.Context, url string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	resp, err := m.hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	return resp.StatusCode, nil
}

// timed is given a client with a timeout, wrapped by the helper: not reported.
type timed struct {
	hc *http.Client
}

func newTimed() *timed {
	return &timed{hc: instrument.Client(&http.Client{Timeout: 5 * time.Second})}
}

func (t *timed) ping(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, url, nil)
	if err != nil {
		return err
	}
	resp, err := t.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
