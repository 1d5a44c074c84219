// Package stscreds is an object-storage client that gets temporary credentials from an STS
// endpoint (the AWS query protocol: a form POST with Action=AssumeRole...). Asking for
// credentials again has no effect but new credentials, as an OAuth token request; an IAM
// action that creates something is a write.
package stscreds

import (
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"time"
)

type Value struct {
	AccessKeyID     string `xml:"AccessKeyId"`
	SecretAccessKey string `xml:"SecretAccessKey"`
	SessionToken    string `xml:"SessionToken"`
	Expiration      time.Time
}

// Provider hands out credentials.
type Provider interface {
	Retrieve(ctx context.Context) (Value, error)
}

type Static struct{ V Value }

func (s Static) Retrieve(context.Context) (Value, error) { return s.V, nil }

// WebIdentity exchanges a web identity token for temporary credentials.
type WebIdentity struct {
	Endpoint string
	RoleARN  string
	Token    func() (string, error)
	Client   *http.Client
}

func (w *WebIdentity) Retrieve(ctx context.Context) (Value, error) {
	tok, err := w.Token()
	if err != nil {
		return Value{}, fmt.Errorf("web identity token: %w", err)
	}
	form := url.Values{}
	form.Set("Action", "AssumeRoleWithWebIdentity")
	form.Set("Version", "2011-06-15")
	form.Set("RoleArn", w.RoleARN)
	form.Set("WebIdentityToken", tok)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.Endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return Value{}, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := w.Client.Do(req)
	if err != nil {
		return Value{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
		return Value{}, fmt.Errorf("sts: %s: %s", resp.Status, b)
	}
	var out struct {
		Result struct {
			Credentials Value `xml:"Credentials"`
		} `xml:"AssumeRoleWithWebIdentityResult"`
	}
	if err := xml.NewDecoder(resp.Body).Decode(&out); err != nil {
		return Value{}, err
	}
	return out.Result.Credentials, nil
}

type Client struct {
	endpoint string
	creds    Provider
	http     *http.Client
}

func backoff(attempt int) time.Duration {
	d := 100 * time.Millisecond << attempt
	return d/2 + rand.N(d/2)
}

// ---- Not reported ----

// Stat reads an object's metadata, signing each attempt with fresh credentials: the only
// POST on the way is the credentials request.
func (c *Client) Stat(ctx context.Context, bucket, object string) (http.Header, error) {
	var lastErr error
	for attempt := range 5 {
		if attempt > 0 {
			select {
			case <-time.After(backoff(attempt)):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		v, err := c.creds.Retrieve(ctx)
		if err != nil {
			lastErr = err
			continue
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodHead, c.endpoint+"/"+bucket+"/"+object, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("X-Amz-Security-Token", v.SessionToken)
		resp, err := c.http.Do(req)
		if err != nil {
			lastErr = err
			continue
		}
		resp.Body.Close()
		if resp.StatusCode >= 500 {
			lastErr = fmt.Errorf("stat %s/%s: %s", bucket, object, resp.Status)
			continue
		}
		return resp.Header, nil
	}
	return nil, lastErr
}

// AssumeRole asks STS for a role's credentials, retrying server errors.
func AssumeRole(ctx context.Context, hc *http.Client, endpoint, roleARN string) (*http.Response, error) {
	body := "Action=AssumeRole&Version=2011-06-15&RoleSessionName=sync&RoleArn=" + url.QueryEscape(roleARN)
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := hc.Do(req)
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		if err == nil {
			resp.Body.Close()
		}
		if attempt == 3 {
			return nil, fmt.Errorf("assume role %s: giving up", roleARN)
		}
		time.Sleep(backoff(attempt))
	}
}

// ---- Reported ----

// CreateUser creates an IAM user: the same protocol, an action that writes.
func CreateUser(ctx context.Context, hc *http.Client, endpoint, name string) error {
	form := url.Values{}
	form.Set("Action", "CreateUser")
	form.Set("Version", "2010-05-08")
	form.Set("UserName", name)
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode())) // related "stscreds.go:159: retry loop" "stscreds.go:165: sent here" // want `POST request is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := hc.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode < 500 {
				return nil
			}
		}
		if attempt == 3 {
			return fmt.Errorf("create user %s: giving up", name)
		}
		time.Sleep(backoff(attempt))
	}
}
