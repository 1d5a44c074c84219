// Package pkgclient is an SDK whose requests go through a package-level client that users may
// replace. Its default is a pooled client with no Timeout; the package's tests put a client
// of their own there, which is not what users run.
package pkgclient

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/hashicorp/go-cleanhttp"
)

// HTTPClient sends the SDK's requests.
var HTTPClient = cleanhttp.DefaultPooledClient() // related "pkgclient.go:44: Client.send sends a request with its caller's context through it" // want `this http\.Client has no Timeout by default, so Client\.send can hang unless callers set deadlines; set a default Timeout`

// Client talks to the licensing API.
type Client struct {
	Account string
	Token   string
}

// License is a license as the API returns it.
type License struct {
	ID     string `json:"id"`
	Status string `json:"status"`
}

// ---- Reported, once, where the default client is made ----

// Validate asks the API whether a license key is valid.
func (c *Client) Validate(ctx context.Context, key string) (*License, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://api.example.com/v1/accounts/"+c.Account+"/licenses/"+key, nil)
	if err != nil {
		return nil, err
	}
	var l License
	return &l, c.send(req, &l)
}

func (c *Client) send(req *http.Request, out any) error {
	req.Header.Set("Authorization", "Bearer "+c.Token)
	resp, err := HTTPClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("licensing: %s", resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}
