// Package valuehttp makes the program's HTTP clients, returned by value: a proxy and TLS
// settings, and a Timeout only where the caller asks for one.
package valuehttp

import (
	"crypto/tls"
	"errors"
	"net/http"
	"net/url"
	"time"
)

// NewClient returns a client through a transport with the given proxy; it sets no Timeout.
func NewClient(proxy string, insecure bool) (http.Client, error) {
	tr, err := NewTransport(proxy, insecure)
	if err != nil {
		return http.Client{}, err
	}
	return http.Client{
		Transport: tr,
	}, nil
}

// NewTimedClient returns a client whose requests end after timeout.
func NewTimedClient(proxy string, timeout time.Duration) (http.Client, error) {
	tr, err := NewTransport(proxy, false)
	if err != nil {
		return http.Client{}, err
	}
	return http.Client{Transport: tr, Timeout: timeout}, nil
}

// NewTransport clones the default transport with the proxy and TLS settings.
func NewTransport(proxy string, insecure bool) (*http.Transport, error) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: insecure}
	if proxy != "" {
		u, err := url.Parse(proxy)
		if err != nil {
			return nil, err
		}
		if u.Scheme == "" || u.Host == "" {
			return nil, errors.New("proxy URL must include scheme and host")
		}
		tr.Proxy = http.ProxyURL(u)
	}
	return tr, nil
}
