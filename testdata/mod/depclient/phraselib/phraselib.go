// Package phraselib translates phrases through a public web endpoint. Its API takes no
// context, and the client it builds for itself has no Timeout.
package phraselib

import (
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

type Config struct {
	Host      string
	UserAgent string
	Proxy     string
}

type Translator struct {
	host   string
	agent  string
	client *http.Client
}

type headerTransport struct {
	next    http.RoundTripper
	headers map[string]string
}

func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	for k, v := range t.headers {
		req.Header.Set(k, v)
	}
	return t.next.RoundTrip(req)
}

func New(cfg Config) *Translator {
	if cfg.Host == "" {
		cfg.Host = "phrases.example.com"
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = "phraselib/1.0"
	}
	transport := &http.Transport{TLSClientConfig: &tls.Config{MinVersion: tls.VersionTLS12}}
	if strings.HasPrefix(cfg.Proxy, "http") {
		if u, err := url.Parse(cfg.Proxy); err == nil {
			transport.Proxy = http.ProxyURL(u)
		}
	}
	client := &http.Client{
		Transport: &headerTransport{next: transport, headers: map[string]string{"User-Agent": cfg.UserAgent}},
	}
	return &Translator{host: cfg.Host, agent: cfg.UserAgent, client: client}
}

type Result struct {
	Text   string
	Source string
}

// Translate sends the phrase and decodes the answer.
func (t *Translator) Translate(text, src, dest string) (*Result, error) {
	src, dest = strings.ToLower(src), strings.ToLower(dest)
	out, err := t.translate(text, src, dest)
	if err != nil {
		return nil, fmt.Errorf("phraselib: %w", err)
	}
	return out, nil
}

func (t *Translator) translate(text, src, dest string) (*Result, error) {
	q := url.Values{"q": {text}, "sl": {src}, "tl": {dest}}
	req, err := http.NewRequest(http.MethodGet, "https://"+t.host+"/translate?"+q.Encode(), nil)
	if err != nil {
		return nil, err
	}
	resp, err := t.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return nil, fmt.Errorf("status %d: %s", resp.StatusCode, body)
	}
	var r struct {
		Sentences []struct {
			Trans string `json:"trans"`
		} `json:"sentences"`
		Src string `json:"src"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		return nil, err
	}
	var b strings.Builder
	for _, s := range r.Sentences {
		b.WriteString(s.Trans)
	}
	return &Result{Text: b.String(), Source: r.Src}, nil
}
