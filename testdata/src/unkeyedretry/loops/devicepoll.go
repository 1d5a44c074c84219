package loops

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// An OAuth device flow polls the token endpoint at the interval the server gave until the user
// approves: it goes round on the server's answer ("authorization_pending"), and a failure to
// reach the server ends it. The wait is for a state, and each request sent again was answered.

type deviceToken struct {
	AccessToken string `json:"access_token"`
	ExpiresIn   int    `json:"expires_in"`
}

type oauthError struct {
	Code        string `json:"error"`
	Description string `json:"error_description"`
}

func (e *oauthError) Error() string { return e.Code + ": " + e.Description }

type deviceFlow struct {
	hc       *http.Client
	tokenURL string
	clientID string
}

func (f *deviceFlow) exchangeRequest(ctx context.Context, deviceCode string) (*http.Request, error) {
	form := url.Values{}
	form.Set("grant_type", "urn:ietf:params:oauth:grant-type:device_code")
	form.Set("device_code", deviceCode)
	form.Set("client_id", f.clientID)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.tokenURL, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	return req, nil
}

// decodeToken reads the token endpoint's answer: the token, or the error the server named.
func decodeToken(resp *http.Response) (*deviceToken, error) {
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		var oe oauthError
		if err := json.Unmarshal(body, &oe); err != nil || oe.Code == "" {
			return nil, fmt.Errorf("token endpoint: %s", resp.Status)
		}
		return nil, &oe
	}
	var tok deviceToken
	if err := json.Unmarshal(body, &tok); err != nil {
		return nil, err
	}
	return &tok, nil
}

// AwaitApproval polls until the user approves the device; the server sets the interval.
func (f *deviceFlow) AwaitApproval(ctx context.Context, deviceCode string, interval time.Duration) (*deviceToken, error) {
	for {
		req, err := f.exchangeRequest(ctx, deviceCode)
		if err != nil {
			return nil, err
		}
		resp, err := f.hc.Do(req)
		if err != nil {
			return nil, fmt.Errorf("device flow: %w", err)
		}
		tok, err := decodeToken(resp)
		if err == nil {
			return tok, nil
		}
		var oe *oauthError
		if !errors.As(err, &oe) {
			return nil, err
		}
		switch oe.Code {
		case "authorization_pending":
		case "slow_down":
			interval += 5 * time.Second
		default:
			return nil, err
		}
		select {
		case <-time.After(interval):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// AwaitApprovalThroughOutages also goes round when the server cannot be reached: a POST whose
// outcome is unknown is sent again.
func (f *deviceFlow) AwaitApprovalThroughOutages(ctx context.Context, deviceCode string, interval time.Duration) (*deviceToken, error) {
	for {
		req, err := f.exchangeRequest(ctx, deviceCode)
		if err != nil {
			return nil, err
		}
		resp, err := f.hc.Do(req) // related "devicepoll.go:109: retry loop" // want `a POST request is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			select {
			case <-time.After(interval):
				continue
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		tok, err := decodeToken(resp)
		if err == nil {
			return tok, nil
		}
		var oe *oauthError
		if !errors.As(err, &oe) || oe.Code != "authorization_pending" {
			return nil, err
		}
		select {
		case <-time.After(interval):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// checkAnswer turns an answer that is not a success into an error: a 5xx among them.
func checkAnswer(resp *http.Response) error {
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("token endpoint: %s", resp.Status)
	}
	return nil
}

// RequestToken goes round on any answer that is not a success, a 500 too: the request may have
// been applied, and it is sent again.
func (f *deviceFlow) RequestToken(ctx context.Context, deviceCode string) error {
	for i := 0; i < 5; i++ {
		req, err := f.exchangeRequest(ctx, deviceCode)
		if err != nil {
			return err
		}
		resp, err := f.hc.Do(req) // related "devicepoll.go:151: retry loop" // want `a POST request is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			return err
		}
		if err := checkAnswer(resp); err != nil {
			time.Sleep(time.Duration(i+1) * time.Second)
			continue
		}
		return nil
	}
	return errors.New("token endpoint: gave up")
}
