// Package postflag is a cloud API client whose one request helper sends a POST form or a
// GET, as a bool parameter says: the helpers that pass false send GETs, and retrying them
// repeats nothing; the one that passes true sends POSTs.
package postflag

import (
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/url"
	"time"
)

type Client struct {
	hc      *http.Client
	baseURL string
	apiKey  string
	getOnly bool
}

func New(baseURL, apiKey string) *Client {
	return &Client{hc: &http.Client{Timeout: time.Minute}, baseURL: baseURL, apiKey: apiKey}
}

func (c *Client) newRequest(api string, params url.Values) (json.RawMessage, error) {
	return c.newRawRequest(api, false, params)
}

func (c *Client) newPostRequest(api string, params url.Values) (json.RawMessage, error) {
	return c.newRawRequest(api, true, params)
}

func (c *Client) newRawRequest(api string, post bool, params url.Values) (json.RawMessage, error) {
	params.Set("apiKey", c.apiKey)
	params.Set("command", api)
	params.Set("response", "json")
	var resp *http.Response
	var err error
	if !c.getOnly && post {
		resp, err = c.hc.PostForm(c.baseURL, params)
	} else {
		resp, err = c.hc.Get(c.baseURL + "?" + params.Encode())
	}
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: status %d: %s", api, resp.StatusCode, b)
	}
	return b, nil
}

type JobResult struct {
	JobStatus int             `json:"jobstatus"`
	Result    json.RawMessage `json:"jobresult"`
}

// QueryJobResult asks up to three times: a GET, not reported.
func (c *Client) QueryJobResult(jobID string) (*JobResult, error) {
	var raw json.RawMessage
	var err error
	for i := 0; i < 3; i++ {
		raw, err = c.newRequest("queryAsyncJobResult", url.Values{"jobid": {jobID}})
		if err == nil {
			break
		}
		log.Printf("query job %s: %v", jobID, err)
		time.Sleep(time.Duration(i+1) * 500 * time.Millisecond)
	}
	if err != nil {
		return nil, err
	}
	var r JobResult
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// DeployVM posts the deployment and asks again on failure: a POST form retried without a
// key, reported.
func (c *Client) DeployVM(zone, template string) (string, error) {
	var raw json.RawMessage
	var err error
	for i := 0; i < 3; i++ {
		raw, err = c.newPostRequest("deployVirtualMachine", url.Values{"zoneid": {zone}, "templateid": {template}}) // related "postflag.go:92: retry loop" "postflag.go:32: sent here by newPostRequest" // want `a POST request is retried with no idempotency key; newPostRequest must send one made before the retries`
		if err == nil {
			break
		}
		log.Printf("deploy: %v", err)
		time.Sleep(time.Duration(i+1) * time.Second)
	}
	if err != nil {
		return "", err
	}
	var out struct {
		JobID string `json:"jobid"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return "", err
	}
	return out.JobID, nil
}
