// Package devicetoken: a device flow poll goes round only on the states the server names; a
// request sent again was answered. A poll that goes round on any status retries the POST.
package devicetoken

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// A device flow whose poll tests the status first and then switches on the error code the
// server put in the body: it goes round only on "authorization_pending" and "slow_down", at
// the server's interval, and every other answer, or a failure to reach the server, ends it.

type deviceTokenResp struct {
	AccessToken string `json:"access_token"`
	ExpiresIn   int    `json:"expires_in"`
}

type tokenErrBody struct {
	Error            string `json:"error"`
	ErrorDescription string `json:"error_description"`
}

func postTokenForm(ctx context.Context, hc *http.Client, endpoint string, form url.Values) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	return hc.Do(req)
}

// ---- Not reported: it waits out a state the server names ----

func pollDeviceToken(ctx context.Context, hc *http.Client, base, clientID, code string, interval time.Duration) (*deviceTokenResp, error) {
	form := url.Values{}
	form.Set("grant_type", "urn:ietf:params:oauth:grant-type:device_code")
	form.Set("client_id", clientID)
	form.Set("device_code", code)
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		default:
		}
		resp, err := postTokenForm(ctx, hc, base+"/token", form)
		if err != nil {
			return nil, err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusOK {
			var tok deviceTokenResp
			if err := json.Unmarshal(body, &tok); err != nil {
				return nil, fmt.Errorf("decode token: %w", err)
			}
			return &tok, nil
		}
		var e tokenErrBody
		if jerr := json.Unmarshal(body, &e); jerr != nil || e.Error == "" {
			return nil, fmt.Errorf("token request failed (status %d): %s", resp.StatusCode, body)
		}
		var wait time.Duration
		switch e.Error {
		case "authorization_pending":
			wait = interval
		case "slow_down":
			wait = 2 * interval
		default:
			return nil, fmt.Errorf("token: %s: %s", e.Error, e.ErrorDescription)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}

// ---- Reported: any status other than 200 goes round, a 503 too ----

func pollTokenAnyError(ctx context.Context, hc *http.Client, base string, form url.Values, interval time.Duration) (*deviceTokenResp, error) {
	for {
		resp, err := postTokenForm(ctx, hc, base+"/token", form) // related "devicetoken.go:95: retry loop" "devicetoken.go:37: sent here by postTokenForm" // want `a POST request is retried with no idempotency key; postTokenForm must send one made before the retries`
		if err != nil {
			return nil, err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusOK {
			var tok deviceTokenResp
			if err := json.Unmarshal(body, &tok); err != nil {
				return nil, err
			}
			return &tok, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(interval):
		}
	}
}
