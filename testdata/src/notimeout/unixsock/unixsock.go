// Package unixsock talks HTTP to the local agent over a Unix domain socket: a process on this
// machine, not a remote dependency. The same client over TCP is reported.
package unixsock

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
)

type Client struct {
	hc    *http.Client
	token string
}

func NewClient(path, token string) *Client {
	var d net.Dialer
	return &Client{
		hc: &http.Client{
			Transport: &http.Transport{
				DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
					return d.DialContext(ctx, "unix", path)
				},
			},
		},
		token: token,
	}
}

func (c *Client) Do(ctx context.Context, method, path string, in, out any) error {
	var body bytes.Buffer
	if in != nil {
		if err := json.NewEncoder(&body).Encode(in); err != nil {
			return err
		}
	}
	req, err := http.NewRequestWithContext(ctx, method, "http://agent"+path, &body)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Token "+c.token)
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("agent: %s", resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// The same over TCP to a host that is configured: a remote dependency, reported.
type RemoteClient struct {
	hc   *http.Client
	addr string
}

func NewRemoteClient(addr string) *RemoteClient {
	var d net.Dialer
	return &RemoteClient{
		hc: &http.Client{ // related "unixsock.go:81: RemoteClient.Get sends a request with its caller's context through it" // want `this http\.Client has no Timeout by default, so RemoteClient\.Get can hang; set a default Timeout`
			Transport: &http.Transport{
				DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
					return d.DialContext(ctx, network, addr)
				},
			},
		},
		addr: addr,
	}
}

func (c *RemoteClient) Get(ctx context.Context, path string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+c.addr+path, nil)
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return json.NewDecoder(resp.Body).Decode(out)
}
