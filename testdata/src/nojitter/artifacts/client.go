// Package artifacts downloads plugin archives. Two constructors make the same kind of client
// for two services and store it in one field; the methods that send are shared.
package artifacts

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/url"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

const requestTimeout = 30 * time.Second

// Manifest lists the archives of a release.
type Manifest struct {
	Version  string            `json:"version"`
	Archives map[string]string `json:"archives"`
}

// Client fetches manifests and archives.
type Client struct {
	ctx     context.Context
	base    *url.URL
	hc      *retryablehttp.Client
	product string
}

func logRequest(_ retryablehttp.Logger, req *http.Request, attempt int) {
	if attempt > 0 {
		log.Printf("[%s] retrying %s (attempt %d)", req.Method, req.URL, attempt+1)
	}
}

// Manifest reads the release manifest.
func (c *Client) Manifest(since time.Time) (*Manifest, error) {
	req, err := retryablehttp.NewRequestWithContext(c.ctx, http.MethodGet, c.base.JoinPath("manifest.json").String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("If-Modified-Since", since.UTC().Format(http.TimeFormat))
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "artifacts/"+c.product)
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetching manifest: %w", err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusNotModified:
		return nil, nil
	default:
		return nil, fmt.Errorf("manifest: unexpected status %s", resp.Status)
	}
	var m Manifest
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		return nil, fmt.Errorf("decoding manifest: %w", err)
	}
	return &m, nil
}

// Download copies an archive to w.
func (c *Client) Download(path string, w io.Writer) error {
	u, err := c.base.Parse(path)
	if err != nil {
		return err
	}
	req, err := retryablehttp.NewRequestWithContext(c.ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return fmt.Errorf("downloading %s: %w", path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("download %s: %s", path, resp.Status)
	}
	_, err = io.Copy(w, resp.Body)
	return err
}
