// Package fieldclient is a service client whose users may set its HTTP client through an
// exported field; when they do not, a helper makes one without a Timeout. The field is set
// only by the package's tests (a test server's client), which is not what users run: the
// default is reported, once, where it is made.
package fieldclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Client talks to one transfer service.
type Client struct {
	HTTP   *http.Client
	Origin string
}

func (c *Client) httpClient() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return &http.Client{ // related "fieldclient.go:35: Client.do sends a request with its caller's context through it" "fieldclient.go:25: a client given here replaces the default" // want `this http\.Client has no Timeout by default, so Client\.do can hang unless callers set deadlines; set a default Timeout`
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return errors.New("redirects are not allowed")
		},
	}
}

func (c *Client) do(req *http.Request) (*http.Response, error) {
	resp, err := c.httpClient().Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return resp, nil
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 8<<10))
	return nil, fmt.Errorf("transfer service: %s: %s", resp.Status, strings.TrimSpace(string(body)))
}

// Transfer is one stored transfer.
type Transfer struct {
	ID   string `json:"id"`
	Size int64  `json:"size"`
}

// Get fetches a transfer's metadata.
func (c *Client) Get(ctx context.Context, id string) (*Transfer, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(c.Origin, "/")+"/api/v1/transfers/"+id, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var t Transfer
	if err := json.NewDecoder(resp.Body).Decode(&t); err != nil {
		return nil, fmt.Errorf("decode transfer %s: %w", id, err)
	}
	return &t, nil
}
