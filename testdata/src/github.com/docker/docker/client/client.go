// Package client is a stand-in for github.com/docker/docker/client: a client of the Docker
// Engine API, sent over the daemon's socket (here, any http.Client's transport).
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
)

// Client talks to the Docker daemon.
type Client struct {
	client *http.Client
	host   string
}

// NewClientWithOpts returns a client of the daemon named by DOCKER_HOST, or of the local socket.
func NewClientWithOpts() (*Client, error) {
	return &Client{client: &http.Client{}, host: "http://docker"}, nil
}

func (c *Client) post(ctx context.Context, path string, query url.Values, body any) (*http.Response, error) {
	var buf bytes.Buffer
	if body != nil {
		if err := json.NewEncoder(&buf).Encode(body); err != nil {
			return nil, err
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.host+"/v1.45"+path+"?"+query.Encode(), &buf)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 400 {
		defer resp.Body.Close()
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
		return nil, fmt.Errorf("docker: %s: %s", resp.Status, msg)
	}
	return resp, nil
}

// NetworkConnect connects a container to a network.
func (c *Client) NetworkConnect(ctx context.Context, network, container string) error {
	resp, err := c.post(ctx, "/networks/"+network+"/connect", nil, map[string]string{"Container": container})
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// ImagePull pulls an image; the caller reads the progress stream.
func (c *Client) ImagePull(ctx context.Context, ref string) (io.ReadCloser, error) {
	resp, err := c.post(ctx, "/images/create", url.Values{"fromImage": {ref}}, nil)
	if err != nil {
		return nil, err
	}
	return resp.Body, nil
}
