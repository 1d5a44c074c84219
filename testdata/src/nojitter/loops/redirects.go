package loops

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
)

// A client that follows one redirect itself (its http.Client does not), and one that sends a
// request again when the server says it is busy.

type vaultishClient struct {
	hc *http.Client
}

type redirectError struct {
	Code     int
	Location string
	Original *http.Request
}

func (e *redirectError) Error() string { return fmt.Sprintf("redirect %d to %q", e.Code, e.Location) }

// followRedirect points req at the location of a 301, 302 or 307 answer, at most *left times.
func (c *vaultishClient) followRedirect(req *http.Request, resp *http.Response, left *int) (bool, error) {
	switch resp.StatusCode {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusTemporaryRedirect:
	default:
		return false, nil
	}
	fail := func(to *url.URL, msg string) error {
		loc := ""
		if to != nil {
			loc = to.String()
		}
		return &redirectError{Code: resp.StatusCode, Location: loc + ": " + msg, Original: req}
	}
	to, err := resp.Location()
	if err != nil {
		return false, fail(nil, err.Error())
	}
	if *left <= 0 {
		return false, fail(to, "at most one redirect")
	}
	*left--
	if req.GetBody != nil {
		b, err := req.GetBody()
		if err != nil {
			return false, fail(to, err.Error())
		}
		req.Body = b
	}
	req.URL = to
	return true, nil
}

// ---- Not reported: each round goes to the address the last answer named ----

func (c *vaultishClient) Send(req *http.Request) (*http.Response, error) {
	left := 1
	for {
		resp, err := c.hc.Do(req)
		if err != nil {
			return nil, err
		}
		again, err := c.followRedirect(req, resp, &left)
		if err != nil {
			resp.Body.Close()
			return nil, err
		}
		if !again {
			return resp, nil
		}
		resp.Body.Close()
	}
}

// markBusy prepares req to be sent again after a 503: the body rewound, the attempt counted.
func (c *vaultishClient) markBusy(req *http.Request, resp *http.Response, attempt int) (bool, error) {
	if resp.StatusCode != http.StatusServiceUnavailable {
		return false, nil
	}
	if req.GetBody != nil {
		b, err := req.GetBody()
		if err != nil {
			return false, err
		}
		req.Body = b
	}
	req.Header.Set("X-Attempt", strconv.Itoa(attempt))
	return true, nil
}

// ---- Reported: the same request again, at once, on a 503 ----

func (c *vaultishClient) SendBusy(req *http.Request) (*http.Response, error) {
	for attempt := 1; attempt <= 3; attempt++ { // related "redirects.go:98: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		resp, err := c.hc.Do(req)
		if err != nil {
			return nil, err
		}
		again, err := c.markBusy(req, resp, attempt)
		if err != nil {
			resp.Body.Close()
			return nil, err
		}
		if !again {
			return resp, nil
		}
		resp.Body.Close()
	}
	return nil, fmt.Errorf("%s: still busy", req.URL)
}
