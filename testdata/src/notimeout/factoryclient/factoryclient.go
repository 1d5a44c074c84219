// Package factoryclient is a registry client that makes an http.Client per request through a
// factory kept in a field: a function literal that copies http.DefaultClient, so every
// request it sends has no timeout but its caller's context.
package factoryclient

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// Manifest is an image manifest.
type Manifest struct {
	MediaType string `json:"mediaType"`
	Digest    string `json:"digest"`
}

// ---- Reported: the factory's client, a copy of http.DefaultClient, has no Timeout ----

// Registry reads manifests.
type Registry struct {
	base    string
	newHTTP func() *http.Client
}

// New returns a registry client of base.
func New(base string) *Registry {
	return &Registry{base: base, newHTTP: func() *http.Client {
		c := *http.DefaultClient // related "factoryclient.go:44: Registry.Manifest sends a request with its caller's context through it" // want `this copy of http\.DefaultClient has no Timeout by default, so Registry\.Manifest can hang; set a default Timeout`
		return &c
	}}
}

// Manifest fetches the manifest of repo at ref.
func (r *Registry) Manifest(ctx context.Context, repo, ref string) (*Manifest, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("%s/v2/%s/manifests/%s", r.base, repo, ref), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/vnd.oci.image.manifest.v1+json")
	resp, err := r.newHTTP().Do(req)
	if err != nil {
		return nil, fmt.Errorf("manifest %s:%s: %w", repo, ref, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return nil, fmt.Errorf("manifest %s:%s: %s: %s", repo, ref, resp.Status, msg)
	}
	m := new(Manifest)
	if err := json.NewDecoder(resp.Body).Decode(m); err != nil {
		return nil, fmt.Errorf("decode manifest: %w", err)
	}
	return m, nil
}

// ---- Not reported: the factory sets a Timeout on its copy ----

// Mirror reads blobs' sizes from a mirror.
type Mirror struct {
	base    string
	newHTTP func() *http.Client
}

// NewMirror returns a mirror client of base.
func NewMirror(base string) *Mirror {
	return &Mirror{base: base, newHTTP: func() *http.Client {
		c := *http.DefaultClient
		c.Timeout = 20 * time.Second
		return &c
	}}
}

// BlobSize returns the size of the blob digest.
func (m *Mirror) BlobSize(ctx context.Context, repo, digest string) (int64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, fmt.Sprintf("%s/v2/%s/blobs/%s", m.base, repo, digest), nil)
	if err != nil {
		return 0, err
	}
	resp, err := m.newHTTP().Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("blob %s: %s", digest, resp.Status)
	}
	return resp.ContentLength, nil
}
