// Package idplogin logs in through an identity provider with the shared idpclient.HTTPClient:
// its requests carry no context, and the functions making them have none to give, so the
// shared client's missing Timeout (reported in idpclient) is the cause, not reported again
// here. A function that is given a context and drops it is reported.
package idplogin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"notimeout/idpclient"
)

type Client struct {
	client *idpclient.HTTPClient
	base   string
}

func New(base string, tr http.RoundTripper) (*Client, error) {
	hc, err := idpclient.NewHTTPClient(tr, &idpclient.Options{})
	if err != nil {
		return nil, err
	}
	return &Client{client: hc, base: base}, nil
}

// Authenticate starts at the login page and follows the provider's pages to the assertion.
func (c *Client) Authenticate(user, password string) (string, error) {
	req, err := http.NewRequest(http.MethodGet, c.base+"/login", nil)
	if err != nil {
		return "", fmt.Errorf("building the login request: %w", err)
	}
	return c.follow(req, user, password)
}

// follow sends req and the requests its answer leads to, each made without a context, like
// the first one: its request carries no context to drop.
func (c *Client) follow(req *http.Request, user, password string) (string, error) {
	resp, err := c.client.Do(req)
	if err != nil {
		return "", fmt.Errorf("request to %s: %w", req.URL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	page := string(body)
	switch {
	case strings.Contains(page, `name="SAMLResponse"`):
		return page, nil
	case strings.Contains(page, `id="password-form"`):
		form := url.Values{"username": {user}, "password": {password}}
		next, err := http.NewRequest(http.MethodPost, c.base+"/login/password", strings.NewReader(form.Encode()))
		if err != nil {
			return "", err
		}
		next.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		return c.follow(next, user, password)
	case strings.Contains(page, `id="continue"`):
		next, err := http.NewRequest(http.MethodGet, c.base+"/login/continue", nil)
		if err != nil {
			return "", err
		}
		return c.follow(next, user, password)
	}
	return "", errors.New("unknown login page")
}

// PollPush waits for the user to approve a push, given a context it drops.
func (c *Client) PollPush(ctx context.Context, txn string) (bool, error) {
	req, err := http.NewRequest(http.MethodGet, c.base+"/push/"+url.PathEscape(txn), nil)
	if err != nil {
		return false, err
	}
	resp, err := c.client.Do(req) // related "idpclient.go:41: HTTPClient.Do passes its request's context to Client.Do" "idplogin.go:77: http.NewRequest gives the request no context" // want `HTTPClient\.Do's request has no context, so a stalled server hangs this call; pass ctx to http\.NewRequestWithContext`
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	return resp.StatusCode == http.StatusOK, nil
}
