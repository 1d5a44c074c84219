package recursion

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// A voice API's SDK: its request helper, on a 5xx, builds the request again from the one it
// sent (same method, same URL, the body it buffered) and calls itself, counting the tries in
// the options it is handed. A call placed before the 5xx is placed again.

type callOptions struct {
	voice bool
	tries int
}

type VoiceClient struct {
	hc     *http.Client
	base   string
	authID string
	token  string
	agent  string
}

func (c *VoiceClient) newRequest(method, path string, params any) (*http.Request, error) {
	b, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequest(method, c.base+path, bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", c.agent)
	req.SetBasicAuth(c.authID, c.token)
	return req, nil
}

func (c *VoiceClient) execute(req *http.Request, out any, opts *callOptions) error { // related "rebuilt.go:99: POST /Call/ sent here" // want `the retrying function execute retries POST /Call/ without an idempotency key, so a retry can repeat its effect`
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return fmt.Errorf("buffering request: %w", err)
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	switch {
	case opts != nil && opts.voice && resp.StatusCode >= 500:
		if opts.tries == 2 {
			return errors.New(string(data))
		}
		opts.tries++
		again, err := http.NewRequest(req.Method, req.URL.String(), bytes.NewReader(body))
		if err != nil {
			return err
		}
		again.Header.Set("Content-Type", "application/json")
		again.Header.Set("User-Agent", c.agent)
		again.SetBasicAuth(c.authID, c.token)
		return c.execute(again, out, opts)
	case resp.StatusCode/100 == 2:
		if out != nil {
			return json.Unmarshal(data, out)
		}
		return nil
	default:
		return fmt.Errorf("voice api: %s: %s", resp.Status, data)
	}
}

// CallParams says whom to call.
type CallParams struct {
	From      string `json:"from"`
	To        string `json:"to"`
	AnswerURL string `json:"answer_url"`
}

// PlaceCall dials a number.
func (c *VoiceClient) PlaceCall(p CallParams) (string, error) {
	req, err := c.newRequest(http.MethodPost, "/Call/", p)
	if err != nil {
		return "", err
	}
	var out struct {
		RequestUUID string `json:"request_uuid"`
	}
	if err := c.execute(req, &out, &callOptions{voice: true}); err != nil {
		return "", err
	}
	return out.RequestUUID, nil
}

// Hangup ends a call: a DELETE, not reported.
func (c *VoiceClient) Hangup(id string) error {
	req, err := c.newRequest(http.MethodDelete, "/Call/"+id+"/", nil)
	if err != nil {
		return err
	}
	return c.execute(req, nil, &callOptions{voice: true})
}
