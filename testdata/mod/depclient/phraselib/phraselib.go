// Package phraselib is a dependency of another module: its API takes no context, and the
// client it builds for itself has no Timeout.
package phraselib

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
)

type Config struct{ Host string }

type Translator struct {
	host   string
	client *http.Client
}

func New(cfg Config) *Translator {
	if cfg.Host == "" {
		cfg.Host = "phrases.example.com"
	}
	return &Translator{host: cfg.Host, client: &http.Client{}}
}

type Result struct{ Text string }

// Translate sends the phrase and decodes the answer.
func (t *Translator) Translate(text, src, dest string) (*Result, error) {
	return t.translate(text, src, dest)
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
		return nil, fmt.Errorf("phraselib: status %d", resp.StatusCode)
	}
	var r Result
	return &r, json.NewDecoder(resp.Body).Decode(&r)
}

// Detect asks which language text is in, through the same client.
func (t *Translator) Detect(text string) (string, error) {
	req, err := http.NewRequest(http.MethodGet, "https://"+t.host+"/detect?"+url.Values{"q": {text}}.Encode(), nil)
	if err != nil {
		return "", err
	}
	resp, err := t.client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var out struct{ Lang string }
	return out.Lang, json.NewDecoder(resp.Body).Decode(&out)
}
