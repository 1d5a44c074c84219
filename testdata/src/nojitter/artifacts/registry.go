package artifacts

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// Registry looks modules up. Its two constructors configure their clients differently: one
// jitters its backoff, one switches retries off. What the field holds is not one policy, so
// neither is reported from the shared sends.
type Registry struct {
	hc   *retryablehttp.Client
	host string
}

// NewRegistry retries with jittered waits.
func NewRegistry(host string) *Registry {
	rc := retryablehttp.NewClient()
	rc.HTTPClient = &http.Client{Timeout: 10 * time.Second}
	rc.Backoff = retryablehttp.LinearJitterBackoff
	return &Registry{hc: rc, host: host}
}

// NewOfflineRegistry makes a client that tries once.
func NewOfflineRegistry(host string) *Registry {
	rc := retryablehttp.NewClient()
	rc.HTTPClient = &http.Client{Timeout: 10 * time.Second}
	rc.RetryMax = 0
	return &Registry{hc: rc, host: host}
}

// Versions lists the versions of a module.
func (r *Registry) Versions(ctx context.Context, module string) ([]string, error) {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, "https://"+r.host+"/v1/modules/"+module+"/versions", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := r.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("versions of %s: %s", module, resp.Status)
	}
	var out struct {
		Versions []string `json:"versions"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, err
	}
	return out.Versions, nil
}
