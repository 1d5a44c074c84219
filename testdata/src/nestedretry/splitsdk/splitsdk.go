// Package splitsdk is a cloud SDK whose client retries network failures as many times as its
// profile (another package) says: by default not at all.
package splitsdk

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"nestedretry/splitsdk/profile"
)

type Client struct {
	region  string
	profile *profile.ClientProfile
	hc      *http.Client
}

func NewClient(region string, prof *profile.ClientProfile) (*Client, error) {
	if region == "" {
		return nil, fmt.Errorf("a region is required")
	}
	if prof == nil {
		prof = profile.NewClientProfile()
	}
	timeout := time.Duration(prof.HTTPProfile.ReqTimeout) * time.Second
	return &Client{region: region, profile: prof, hc: &http.Client{Timeout: timeout}}, nil
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

type EncryptResponse struct {
	Ciphertext string `json:"ciphertext"`
	RequestID  string `json:"request_id"`
}

// Encrypt asks the key service to encrypt plaintext, retrying network failures as the
// profile allows.
func (c *Client) Encrypt(ctx context.Context, keyID, plaintext string) (*EncryptResponse, error) {
	// Only a request the service can deduplicate is retried.
	var retries int
	if keyID != "" {
		retries = maxInt(c.profile.NetworkFailureMaxRetries, 0)
	}
	var lastErr error
	for i := 0; i <= retries; i++ {
		body := strings.NewReader(fmt.Sprintf(`{"key_id":%q,"plaintext":%q}`, keyID, plaintext))
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://kms."+c.region+".example.com/encrypt", body)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.hc.Do(req)
		if err != nil {
			lastErr = err
			if i < retries {
				time.Sleep(c.profile.NetworkFailureRetryDelay(i))
			}
			continue
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("encrypt: %s", resp.Status)
		}
		var out EncryptResponse
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
			return nil, err
		}
		return &out, nil
	}
	return nil, fmt.Errorf("encrypt: %w", lastErr)
}
