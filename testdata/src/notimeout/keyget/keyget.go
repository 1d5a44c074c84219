// Package keyget: a token verifier that fetches signing keys through an interface of its own
// with *http.Client's Get(url). One provisioner hands it http.DefaultClient: the refresh,
// made while a token is checked, can hang on a stalled key server. A verifier only ever
// given a client with a Timeout is not reported.
package keyget

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// HTTPClient fetches a URL; *http.Client is one.
type HTTPClient interface {
	Get(url string) (*http.Response, error)
}

type JSONWebKey struct {
	KeyID string `json:"kid"`
	Alg   string `json:"alg"`
	N     string `json:"n"`
	E     string `json:"e"`
}

type KeySet struct {
	Keys []JSONWebKey `json:"keys"`
}

// keyStore caches a key set for as long as the server says.
type keyStore struct {
	mu     sync.RWMutex
	client HTTPClient
	uri    string
	keys   KeySet
	expiry time.Time
}

func newKeyStore(client HTTPClient, uri string) (*keyStore, error) {
	keys, age, err := fetchKeys(client, uri)
	if err != nil {
		return nil, err
	}
	return &keyStore{client: client, uri: uri, keys: keys, expiry: time.Now().Add(age)}, nil
}

// Get returns the keys with the id, reloading the set when it expired.
func (ks *keyStore) Get(kid string) []JSONWebKey {
	ks.mu.RLock()
	expired := time.Now().After(ks.expiry)
	ks.mu.RUnlock()
	if expired {
		ks.reload()
	}
	ks.mu.RLock()
	defer ks.mu.RUnlock()
	var out []JSONWebKey
	for _, k := range ks.keys.Keys {
		if k.KeyID == kid {
			out = append(out, k)
		}
	}
	return out
}

func (ks *keyStore) reload() {
	keys, age, err := fetchKeys(ks.client, ks.uri) // the same cause as Init's: reported there
	if err != nil {
		slog.Warn("reloading signing keys", "uri", ks.uri, "err", err)
		return
	}
	ks.mu.Lock()
	ks.keys, ks.expiry = keys, time.Now().Add(age)
	ks.mu.Unlock()
}

func fetchKeys(client HTTPClient, uri string) (KeySet, time.Duration, error) {
	var keys KeySet
	resp, err := client.Get(uri)
	if err != nil {
		return keys, 0, fmt.Errorf("fetching %s: %w", uri, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return keys, 0, fmt.Errorf("fetching %s: %s", uri, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(&keys); err != nil {
		return keys, 0, err
	}
	return keys, cacheAge(resp.Header.Get("Cache-Control")), nil
}

func cacheAge(cc string) time.Duration {
	for _, part := range strings.Split(cc, ",") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(part), "max-age="); ok {
			if n, err := strconv.Atoi(v); err == nil {
				return time.Duration(n) * time.Second
			}
		}
	}
	return 5 * time.Minute
}

// CloudProvisioner verifies instance identity tokens against the cloud's published keys.
type CloudProvisioner struct {
	CertsURL string
	keyStore *keyStore
}

func (p *CloudProvisioner) Init() (err error) {
	if p.CertsURL == "" {
		return errors.New("provisioner: no certs URL")
	}
	p.keyStore, err = newKeyStore(http.DefaultClient, p.CertsURL) // related "keyget.go:44: newKeyStore sends requests through the http.Client it is given" // want `newKeyStore sends a request without a context through http\.DefaultClient \(no Timeout\): a stalled server hangs it`
	return err
}

func (p *CloudProvisioner) Verify(kid string) bool { return len(p.keyStore.Get(kid)) > 0 }

// timedStore is only ever given a client with a Timeout: not reported.
type timedStore struct {
	client HTTPClient
	uri    string
}

func NewTimedStore(uri string) *timedStore {
	return &timedStore{client: &http.Client{Timeout: 10 * time.Second}, uri: uri}
}

func (ts *timedStore) Load() (KeySet, error) {
	keys, _, err := fetchKeys(ts.client, ts.uri)
	return keys, err
}

// getJSON decodes what the URL answers.
func getJSON(client HTTPClient, uri string, v any) error {
	resp, err := client.Get(uri)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", uri, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(v)
}

// OIDCProvisioner names http.DefaultClient twice in one function: one finding, the other
// call related.
type OIDCProvisioner struct {
	DiscoveryURL string
	config       struct {
		JWKSURI string `json:"jwks_uri"`
	}
	keyStore *keyStore
}

func (p *OIDCProvisioner) Init() (err error) {
	if err = getJSON(http.DefaultClient, p.DiscoveryURL, &p.config); err != nil { // related "keyget.go:141: getJSON sends requests through the http.Client it is given" "keyget.go:167: newKeyStore sends through the same client" // want `getJSON sends a request without a context through http\.DefaultClient \(no Timeout\), so a stalled server hangs this call`
		return err
	}
	p.keyStore, err = newKeyStore(http.DefaultClient, p.config.JWKSURI)
	return err
}
