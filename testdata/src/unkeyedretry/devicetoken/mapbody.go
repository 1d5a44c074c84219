package devicetoken

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// A device flow of an SDK that decodes the error body into a map through a helper of its own
// and compares the entry with the states, after a test of the status. It goes round only on
// a 400 that names "authorization_pending" or "slow_down"; a failure to reach the server,
// another status or another state ends it.

func decodeBody(r io.Reader) (map[string]interface{}, error) {
	var m map[string]interface{}
	if err := json.NewDecoder(r).Decode(&m); err != nil {
		return nil, err
	}
	return m, nil
}

func formPost(hc *http.Client, endpoint string, form url.Values) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	return hc.Do(req)
}

// ---- Not reported: a 400 naming a state the server waits on is an answer ----

func deviceFlow(hc *http.Client, tokenURL, clientID, deviceCode string, expiresIn, interval int) (*deviceTokenResp, error) {
	expiry := time.Now().Add(time.Duration(expiresIn) * time.Second)
	every := time.Duration(interval) * time.Second
	form := url.Values{
		"client_id":   {clientID},
		"grant_type":  {"urn:ietf:params:oauth:grant-type:device_code"},
		"device_code": {deviceCode},
	}
	for time.Now().Before(expiry) {
		resp, err := formPost(hc, tokenURL, form)
		if err != nil {
			return nil, fmt.Errorf("token endpoint %s: %w", tokenURL, err)
		}
		requestID := resp.Header.Get("X-Request-Id")
		if resp.StatusCode == http.StatusBadRequest {
			defer resp.Body.Close()
			data, err := decodeBody(resp.Body)
			if err != nil {
				return nil, fmt.Errorf("token endpoint %s (request %s): %w", tokenURL, requestID, err)
			}
			switch data["error"] {
			case "authorization_pending":
				time.Sleep(every)
				continue
			case "slow_down":
				every += 5 * time.Second
				time.Sleep(every)
				continue
			case "expired_token":
				return nil, errors.New("device code expired")
			default:
				return nil, fmt.Errorf("token endpoint %s (request %s): %v", tokenURL, requestID, data["error_description"])
			}
		} else if resp.StatusCode != http.StatusOK {
			resp.Body.Close()
			return nil, fmt.Errorf("token endpoint %s (request %s): %s", tokenURL, requestID, resp.Status)
		}
		defer resp.Body.Close()
		var tok deviceTokenResp
		if err := json.NewDecoder(resp.Body).Decode(&tok); err != nil {
			return nil, err
		}
		return &tok, nil
	}
	return nil, errors.New("device code expired")
}

// ---- Reported: a 400 goes round whatever it says, and so does a 5xx ----

func deviceFlowAnyStatus(hc *http.Client, tokenURL string, form url.Values, expiresIn, interval int) (*deviceTokenResp, error) {
	expiry := time.Now().Add(time.Duration(expiresIn) * time.Second)
	for time.Now().Before(expiry) {
		resp, err := formPost(hc, tokenURL, form) // related "mapbody.go:90: retry loop" "mapbody.go:34: sent here by formPost" // want `a POST request is retried with no idempotency key`
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusOK {
			data, _ := decodeBody(resp.Body)
			resp.Body.Close()
			if data["error"] == "access_denied" {
				return nil, errors.New("access denied")
			}
			time.Sleep(time.Duration(interval) * time.Second)
			continue
		}
		defer resp.Body.Close()
		var tok deviceTokenResp
		if err := json.NewDecoder(resp.Body).Decode(&tok); err != nil {
			return nil, err
		}
		return &tok, nil
	}
	return nil, errors.New("device code expired")
}
