// Package headerbound lists and watches resources of a cluster's API through clients whose
// transports bound the wait for an answer's header, though the clients have no Timeout: the
// requests are made in one method and sent in another.
package headerbound

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"sync"
	"time"
)

// Lister reads resource lists with a bearer token that it re-reads from a file.
type Lister struct {
	mu        sync.Mutex
	stop      chan struct{}
	client    *http.Client
	token     string
	tokenFile string
}

// NewLister returns a lister whose transport gives up on a server that does not connect or
// answer within timeout.
func NewLister(tokenFile string, timeout time.Duration) *Lister {
	tr := &http.Transport{
		DialContext: (&net.Dialer{
			Timeout:   timeout,
			KeepAlive: 30 * time.Second,
		}).DialContext,
		TLSHandshakeTimeout:   3 * time.Second,
		ResponseHeaderTimeout: timeout,
		IdleConnTimeout:       time.Minute,
		MaxIdleConnsPerHost:   4,
	}
	l := &Lister{
		client:    &http.Client{Transport: tr},
		stop:      make(chan struct{}),
		tokenFile: tokenFile,
	}
	go func() {
		for {
			select {
			case <-time.After(tr.IdleConnTimeout):
				tr.CloseIdleConnections()
				l.reload()
			case <-l.stop:
				return
			}
		}
	}()
	l.reload()
	ca, err := os.ReadFile("/var/run/ca.crt")
	if err != nil {
		return l
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(ca) {
		return l
	}
	tr.TLSClientConfig = &tls.Config{MinVersion: tls.VersionTLS12, RootCAs: pool}
	return l
}

func (l *Lister) reload() {
	b, err := os.ReadFile(l.tokenFile)
	if err != nil {
		log.Printf("reading token: %v", err)
		return
	}
	l.mu.Lock()
	l.token = string(bytes.TrimSpace(b))
	l.mu.Unlock()
}

func (l *Lister) bearer() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.token
}

// Page is one page of a list.
type Page struct {
	Items []json.RawMessage `json:"items"`
	Next  string            `json:"next"`
}

// List reads the page at url.
func (l *Lister) List(url string) (*Page, error) {
	resp, err := l.get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("list %s: %s", url, resp.Status)
	}
	var p Page
	if err := json.NewDecoder(resp.Body).Decode(&p); err != nil {
		return nil, fmt.Errorf("decoding %s: %w", url, err)
	}
	return &p, nil
}

// Label sets a label, with a body in memory: the transport bounds it too.
func (l *Lister) Label(url, key, value string) error {
	body, err := json.Marshal(map[string]string{key: value})
	if err != nil {
		return err
	}
	req, err := http.NewRequest(http.MethodPatch, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/merge-patch+json")
	resp, err := l.do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return err
}

// Upload sends a file: the transport's header timeout starts only when the body is written,
// which the file's reader paces, so nothing bounds it.
func (l *Lister) Upload(url string, f *os.File) error {
	req, err := http.NewRequest(http.MethodPut, url, f)
	if err != nil {
		return err
	}
	resp, err := l.do(req) // related "headerbound.go:202: Mirror.fetch sends one too" // want `Lister\.Upload and 1 more call in this package send requests made without a context: a stalled server hangs them`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (l *Lister) get(url string) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	return l.do(req)
}

func (l *Lister) do(req *http.Request) (*http.Response, error) {
	if tok := l.bearer(); tok != "" && req.Header.Get("Authorization") == "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	return l.client.Do(req)
}

// Health asks for the server's health with the context it is given.
func (l *Lister) Health(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := l.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("health: %s", resp.Status)
	}
	return nil
}

// Ready is a probe handler's check: the context has no deadline, the transport bounds it.
func Ready(l *Lister, url string) bool {
	return l.Health(context.Background(), url) == nil
}

// Mirror copies lists with a transport that bounds only the connect: a server that accepts
// the connection and never answers holds each request for ever.
type Mirror struct {
	hc *http.Client
}

// NewMirror returns a mirror that connects within connect.
func NewMirror(connect time.Duration) *Mirror {
	return &Mirror{hc: &http.Client{Transport: &http.Transport{ // related "headerbound.go:212: Mirror.send sends a request with its caller's context through it" // want `this http\.Client has no Timeout by default, so Mirror\.send can hang unless callers set deadlines; set a default Timeout`
		DialContext: (&net.Dialer{Timeout: connect}).DialContext,
	}}}
}

func (m *Mirror) fetch(url string) ([]byte, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := m.send(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

func (m *Mirror) send(req *http.Request) (*http.Response, error) {
	req.Header.Set("Accept", "application/json")
	return m.hc.Do(req)
}
