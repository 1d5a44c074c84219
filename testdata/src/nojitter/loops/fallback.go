package loops

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/url"
	"time"
)

// A registry upload that first asks to mount a blob from another repository and, when the
// registry refuses, asks again without the mount: once, with a different request.

type uploader struct {
	client *http.Client
	base   string
	repo   string
}

func newUploader(base, repo string) *uploader {
	return &uploader{client: &http.Client{Timeout: 30 * time.Second}, base: base, repo: repo}
}

func (u *uploader) start(ctx context.Context, from, digest string) (string, error) {
	q := url.Values{}
	if from != "" && digest != "" {
		q.Set("mount", digest)
		q.Set("from", from)
	}
	endpoint := fmt.Sprintf("%s/v2/%s/blobs/uploads/?%s", u.base, u.repo, q.Encode())
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := u.client.Do(req)
	if err != nil {
		if from != "" {
			log.Printf("mount from %s failed, uploading instead: %v", from, err)
			return u.start(ctx, "", digest)
		}
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted && resp.StatusCode != http.StatusCreated {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
		if from != "" {
			log.Printf("mount refused (%d): %s", resp.StatusCode, body)
			return u.start(ctx, "", digest)
		}
		return "", fmt.Errorf("start upload: %s: %s", resp.Status, body)
	}
	var out struct {
		Location string `json:"location"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil && err != io.EOF {
		return "", err
	}
	if loc := resp.Header.Get("Location"); loc != "" {
		return loc, nil
	}
	return out.Location, nil
}

// fetchOnce sends the same request again at once when the first try failed: a flag, not a
// different request, limits it to two tries.
func (u *uploader) fetchOnce(ctx context.Context, path string, retried bool) ([]byte, error) { // related "fallback.go:71: retrying recursion" // want `retrying function fetchOnce goes round without waiting, so it hammers a failing dependency; wait with jitter`
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.base+path, nil)
	if err != nil {
		return nil, err
	}
	resp, err := u.client.Do(req)
	if err != nil {
		if !retried {
			return u.fetchOnce(ctx, path, true)
		}
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}
