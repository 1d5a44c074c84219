// Package boardsdk is the client of a code-review service's REST API, in the shape of the
// SDKs generated for such services: NewClient is handed the http.Client to send through and
// keeps it; the API's parts are services that hold the client and send each request with
// the context their caller gives. Whether a call can hang is decided by the caller: the
// client it built the SDK with, or the context it passes.
package boardsdk

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
)

// Client talks to the service.
type Client struct {
	client  *http.Client
	BaseURL url.URL

	PullRequests *PullRequestsService
	Git          *GitService
}

// BasicAuthTransport adds a token to every request.
type BasicAuthTransport struct {
	Username, Password string
	Transport          http.RoundTripper
}

// RoundTrip sets the Authorization header and sends req through the base transport.
func (t *BasicAuthTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	r.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(t.Username+":"+t.Password)))
	base := t.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	return base.RoundTrip(r)
}

// ---- Reported: the client the package makes for its API has no Timeout, nor has its
// default when none is given ----

// Client returns an http.Client that authenticates with the token, for NewClient.
func (t *BasicAuthTransport) Client() *http.Client {
	return &http.Client{Transport: t} // related "boardsdk.go:105: Client.Do sends a request with its caller's context through the client it is given" "boardsdk.go:56: the package's API is given it here" "tokenauth.go:26: TokenTransport.Client returns one too" "tokenauth.go:31: NewBearerClient returns one too" // want `BasicAuthTransport\.Client and 2 other functions return http\.Clients with no Timeout, so Client\.Do can hang through them`
}

// NewClient returns a client that sends through httpClient, or through http.DefaultClient
// when it is nil.
func NewClient(httpClient *http.Client) (*Client, error) {
	if httpClient == nil {
		httpClient = http.DefaultClient // related "boardsdk.go:105: Client.Do sends a request with its caller's context through it" "boardsdk.go:56: a client given here replaces the default" // want `http\.DefaultClient has no Timeout as the default, so Client\.Do can hang; use a client with a Timeout`
	}
	base, err := url.Parse("https://board.example.com/")
	if err != nil {
		return nil, err
	}
	c := &Client{client: httpClient, BaseURL: *base}
	c.PullRequests = &PullRequestsService{client: c}
	c.Git = &GitService{client: c}
	return c, nil
}

// HTTPClient returns a copy of the client the SDK sends through: the caller's, or the
// default; not a client it makes (not reported).
func (c *Client) HTTPClient() *http.Client {
	cp := *c.client
	return &cp
}

// NewRequest builds a request for the API path urlStr with body encoded as JSON.
func (c *Client) NewRequest(method, urlStr string, body any) (*http.Request, error) {
	rel, err := url.Parse(urlStr)
	if err != nil {
		return nil, err
	}
	u := c.BaseURL.ResolveReference(rel)
	var buf io.ReadWriter
	if body != nil {
		buf = new(bytes.Buffer)
		if err := json.NewEncoder(buf).Encode(body); err != nil {
			return nil, err
		}
	}
	req, err := http.NewRequest(method, u.String(), buf)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

// Do sends req with ctx and decodes the answer into v.
func (c *Client) Do(ctx context.Context, req *http.Request, v any) (*http.Response, error) {
	req = req.WithContext(ctx)
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
		return resp, fmt.Errorf("boardsdk: %s: %s", resp.Status, msg)
	}
	if v != nil {
		if err := json.NewDecoder(resp.Body).Decode(v); err != nil && !errors.Is(err, io.EOF) {
			return resp, err
		}
	}
	return resp, nil
}

// PullRequest is a pull request.
type PullRequest struct {
	ID            int    `json:"pullRequestId"`
	TargetRefName string `json:"targetRefName"`
	SourceRefName string `json:"sourceRefName"`
	Status        string `json:"status"`
}

// PullRequestsService handles pull requests.
type PullRequestsService struct{ client *Client }

// Get returns a pull request.
func (s *PullRequestsService) Get(ctx context.Context, project, repo string, id int) (*PullRequest, *http.Response, error) {
	req, err := s.client.NewRequest(http.MethodGet, fmt.Sprintf("%s/_apis/git/repositories/%s/pullRequests/%d", project, repo, id), nil)
	if err != nil {
		return nil, nil, err
	}
	pr := new(PullRequest)
	resp, err := s.client.Do(ctx, req, pr)
	return pr, resp, err
}

// Comment is a review comment.
type Comment struct {
	Content string `json:"content"`
}

// CreateComment adds a comment to a pull request.
func (s *PullRequestsService) CreateComment(ctx context.Context, project, repo string, id int, c *Comment) (*http.Response, error) {
	req, err := s.client.NewRequest(http.MethodPost, fmt.Sprintf("%s/_apis/git/repositories/%s/pullRequests/%d/threads", project, repo, id), c)
	if err != nil {
		return nil, err
	}
	return s.client.Do(ctx, req, nil)
}

// GitService handles repositories.
type GitService struct{ client *Client }

// Change is one changed file.
type Change struct {
	Path string `json:"path"`
}

// GetDiffs returns the files changed between two branches, a page at a time.
func (s *GitService) GetDiffs(ctx context.Context, project, repo, base, target string, top, skip int) ([]Change, *http.Response, error) {
	q := url.Values{}
	q.Set("baseVersion", base)
	q.Set("targetVersion", target)
	q.Set("$top", fmt.Sprint(top))
	q.Set("$skip", fmt.Sprint(skip))
	req, err := s.client.NewRequest(http.MethodGet, fmt.Sprintf("%s/_apis/git/repositories/%s/diffs/commits?%s", project, repo, q.Encode()), nil)
	if err != nil {
		return nil, nil, err
	}
	var out struct {
		Changes []Change `json:"changes"`
	}
	resp, err := s.client.Do(ctx, req, &out)
	return out.Changes, resp, err
}

// ---- Not reported: a client that wraps the one its caller gives, which sends ----

type signer struct {
	client *http.Client
	key    string
}

func (s *signer) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	r.Header.Set("X-Signature", s.key)
	return s.client.Do(r)
}

// NewSigningClient returns a client that signs each request and sends it through hc.
func NewSigningClient(hc *http.Client, key string) *http.Client {
	return &http.Client{Transport: &signer{client: hc, key: key}}
}
