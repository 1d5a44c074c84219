package loops

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
)

// An image watcher that lists tags from registries. A registry that speaks only plain HTTP
// answers a TLS client with an error; when the operator allowed it, the lister rewrites the
// address from https:// to http:// and asks once more: another address, at most once. Not a
// retry.

type tagOpts struct {
	Registry string
	Name     string
	User     string
	Password string
}

type tagClient struct {
	hc   *http.Client
	base string
	user string
	pass string
}

func (t *tagClient) tags(name string) ([]string, error) {
	req, err := http.NewRequest(http.MethodGet, t.base+"/v2/"+name+"/tags/list", nil)
	if err != nil {
		return nil, err
	}
	req.SetBasicAuth(t.user, t.pass)
	resp, err := t.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("tags %s: %s", name, resp.Status)
	}
	var out struct {
		Tags []string `json:"tags"`
	}
	return out.Tags, json.NewDecoder(resp.Body).Decode(&out)
}

type tagLister struct {
	mu        sync.Mutex
	clients   map[string]*tagClient
	plainHTTP bool
}

func (l *tagLister) client(addr, user, pass string) (*tagClient, error) {
	if addr == "" {
		return nil, fmt.Errorf("no registry address")
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if c, ok := l.clients[addr]; ok {
		return c, nil
	}
	c := &tagClient{hc: &http.Client{Timeout: 20 * time.Second}, base: addr, user: user, pass: pass}
	l.clients[addr] = c
	return c, nil
}

// Tags falls back from https:// to http:// once: not reported.
func (l *tagLister) Tags(opts tagOpts) ([]string, error) {
again:
	c, err := l.client(opts.Registry, opts.User, opts.Password)
	if err != nil {
		return nil, err
	}
	tags, err := c.tags(opts.Name)
	if err != nil {
		if strings.Contains(err.Error(), "server gave HTTP response to HTTPS client") && strings.HasPrefix(opts.Registry, "https://") && l.plainHTTP {
			opts.Registry = strings.Replace(opts.Registry, "https://", "http://", 1)
			goto again
		}
		return nil, err
	}
	return tags, nil
}

// TagsOverTCP falls back from one network to the other by a constant swap: not reported.
func (l *tagLister) TagsOverTCP(opts tagOpts, network string) ([]string, error) {
	for {
		c, err := l.client(network+"+"+opts.Registry, opts.User, opts.Password)
		if err != nil {
			return nil, err
		}
		tags, err := c.tags(opts.Name)
		if err == nil {
			return tags, nil
		}
		if network == "tcp6" {
			network = "tcp4"
			continue
		}
		return nil, err
	}
}

// TagsRewritten rewrites the address in a way that can hold again (http:// back to
// https://... and a prefix the replacement keeps): reported.
func (l *tagLister) TagsRewritten(opts tagOpts) ([]string, error) {
again: // related "schemefallback.go:111: goto retry loop" // want `goto retry loop goes round without waiting and never stops: it hammers a failing dependency`
	c, err := l.client(opts.Registry, opts.User, opts.Password)
	if err != nil {
		return nil, err
	}
	tags, err := c.tags(opts.Name)
	if err != nil {
		if strings.HasPrefix(opts.Registry, "https://") {
			opts.Registry = strings.Replace(opts.Registry, "https://", "https://mirror.", 1)
			goto again
		}
		return nil, err
	}
	return tags, nil
}

// TagsPlainScheme keeps the scheme in the options and swaps it for another constant once the
// registry answers plain HTTP: not reported.
func (l *tagLister) TagsPlainScheme(opts tagOpts, scheme string) ([]string, error) {
	o := struct {
		tagOpts
		Scheme string
	}{opts, scheme}
	for {
		c, err := l.client(o.Scheme+"://"+o.Registry, o.User, o.Password)
		if err != nil {
			return nil, err
		}
		tags, err := c.tags(o.Name)
		if err == nil {
			return tags, nil
		}
		if o.Scheme == "https" && strings.Contains(err.Error(), "HTTP response to HTTPS client") {
			o.Scheme = "http"
			continue
		}
		return nil, err
	}
}
