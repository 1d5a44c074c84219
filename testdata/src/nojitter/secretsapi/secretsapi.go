// Package secretsapi is a generated client of a secrets service: one method per operation,
// taking a params struct whose fields become the query.
package secretsapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

type Secret struct {
	Name, Value string
	Version     int
}

type Pagination struct {
	NextPageToken string
}

type ListSecretsParams struct {
	AppName                 string
	PaginationPageSize      *int64
	PaginationNextPageToken *string
	Context                 context.Context
	Timeout                 time.Duration
}

type ListSecretsPayload struct {
	Secrets    []*Secret
	Pagination *Pagination
}

// ListSecretsOK is the answer to a successful ListSecrets. As every generated response type it
// has an Error method, so that a caller may return it as an error.
type ListSecretsOK struct {
	Payload *ListSecretsPayload
}

func (o *ListSecretsOK) Error() string {
	return fmt.Sprintf("[GET /apps/{app_name}/secrets][200] listSecretsOK %+v", o.Payload)
}

func (o *ListSecretsOK) IsSuccess() bool { return true }

type AuthInfoWriter interface {
	AuthenticateRequest(*http.Request) error
}

type ClientOption func(*http.Request)

// ClientService is the interface of the generated client.
type ClientService interface {
	ListSecrets(params *ListSecretsParams, authInfo AuthInfoWriter, opts ...ClientOption) (*ListSecretsOK, error)
}

type client struct {
	base string
	hc   *http.Client
}

// New returns the generated client.
func New(base string) ClientService {
	return &client{base: base, hc: &http.Client{Timeout: 30 * time.Second}}
}

func (c *client) ListSecrets(params *ListSecretsParams, authInfo AuthInfoWriter, opts ...ClientOption) (*ListSecretsOK, error) {
	q := url.Values{}
	if params.PaginationNextPageToken != nil {
		q.Set("pagination.next_page_token", *params.PaginationNextPageToken)
	}
	ctx := params.Context
	if ctx == nil {
		ctx = context.Background()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/apps/"+params.AppName+"/secrets?"+q.Encode(), nil)
	if err != nil {
		return nil, err
	}
	for _, o := range opts {
		o(req)
	}
	if authInfo != nil {
		if err := authInfo.AuthenticateRequest(req); err != nil {
			return nil, err
		}
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("list secrets: %s", resp.Status)
	}
	var out ListSecretsPayload
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, err
	}
	return &ListSecretsOK{Payload: &out}, nil
}
