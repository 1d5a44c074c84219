// Package optionscopy wraps an http.Client for a proxy's filters: bearer tokens, tracing and
// timeouts from the Options each caller fills. The constructor fills gaps in its own copy of
// the options (o.Log = ...) and sets the client's Timeout from o.Timeout: the caller's
// setting, which that caller is checked for, so the wrapper's Get, Post and Do are not
// reported. A client whose Timeout comes from a field of the package's own struct that
// nothing sets is reported where it is made.
package optionscopy

import (
	"io"
	"log"
	"net/http"
	"net/url"
	"strings"
	"time"
)

type Logger interface {
	Printf(format string, args ...any)
}

type Options struct {
	Timeout               time.Duration
	ResponseHeaderTimeout time.Duration
	IdleConnTimeout       time.Duration
	Log                   Logger
	BearerToken           string
}

type Client struct {
	client http.Client
	token  string
	log    Logger
}

func newTransport(o Options) *http.Transport {
	if o.ResponseHeaderTimeout == 0 {
		o.ResponseHeaderTimeout = o.Timeout
	}
	if o.IdleConnTimeout == 0 {
		o.IdleConnTimeout = 90 * time.Second
	}
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		ResponseHeaderTimeout: o.ResponseHeaderTimeout,
		IdleConnTimeout:       o.IdleConnTimeout,
	}
}

// NewClient makes a client with the caller's options.
func NewClient(o Options) *Client {
	if o.Log == nil {
		o.Log = log.Default()
	}
	return &Client{
		client: http.Client{
			Timeout:   o.Timeout,
			Transport: newTransport(o),
		},
		token: o.BearerToken,
		log:   o.Log,
	}
}

func (c *Client) Get(u string) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	return c.Do(req)
}

func (c *Client) Post(u, contentType string, body io.Reader) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodPost, u, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", contentType)
	return c.Do(req)
}

func (c *Client) PostForm(u string, data url.Values) (*http.Response, error) {
	return c.Post(u, "application/x-www-form-urlencoded", strings.NewReader(data.Encode()))
}

// Do adds the bearer token unless the request has one.
func (c *Client) Do(req *http.Request) (*http.Response, error) {
	if c.token != "" && req.Header.Get("Authorization") == "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.client.Do(req)
	if err != nil {
		c.log.Printf("optionscopy: %s %s: %v", req.Method, req.URL.Redacted(), err)
	}
	return resp, err
}

// Uploader sends files with the timeout its Timeout field says, which nothing sets.
type Uploader struct {
	Timeout time.Duration
	base    string
}

func (u *Uploader) client() *http.Client {
	return &http.Client{Timeout: u.Timeout} // related "optionscopy.go:113: Client.Do sends a request without a context through it" "optionscopy.go:109: http.NewRequest gives the request no context" "optionscopy.go:105: its Timeout is Uploader.Timeout, zero unless users set it" // want `this http\.Client has no Timeout, so a stalled server hangs Client\.Do, whose request has no deadline; set Timeout`
}

func (u *Uploader) Put(name string, body io.Reader) error {
	req, err := http.NewRequest(http.MethodPut, u.base+"/files/"+url.PathEscape(name), body)
	if err != nil {
		return err
	}
	resp, err := u.client().Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
