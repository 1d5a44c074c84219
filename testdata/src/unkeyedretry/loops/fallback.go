package loops

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/url"
)

// A blob upload that asks the registry to mount the blob from another repository and, when it
// refuses, asks once more without the mount: a different request, sent once. Not a retry of
// the POST.

type registry struct {
	hc   *http.Client
	base string
}

func (r *registry) startUpload(ctx context.Context, repo, from, digest string) (string, error) {
	q := url.Values{}
	if from != "" {
		q.Set("mount", digest)
		q.Set("from", from)
	}
	u := fmt.Sprintf("%s/v2/%s/blobs/uploads/?%s", r.base, repo, q.Encode())
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/octet-stream")
	resp, err := r.hc.Do(req)
	if err != nil {
		if from != "" {
			log.Printf("mount from %s: %v; uploading instead", from, err)
			return r.startUpload(ctx, repo, "", digest)
		}
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted && resp.StatusCode != http.StatusCreated {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
		if from != "" {
			return r.startUpload(ctx, repo, "", digest)
		}
		return "", fmt.Errorf("start upload: %s: %s", resp.Status, b)
	}
	return resp.Header.Get("Location"), nil
}
