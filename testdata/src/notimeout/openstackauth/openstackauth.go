// Package openstackauth is a cloud provider's SDK over gophercloud: it authenticates against
// the identity service and then sends its own API's requests through a client with timeouts.
package openstackauth

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/gophercloud/gophercloud"
	"github.com/gophercloud/gophercloud/openstack"
	gcv2 "github.com/gophercloud/gophercloud/v2"
	openstackv2 "github.com/gophercloud/gophercloud/v2/openstack"
)

// ClientOptions configure a Client.
type ClientOptions struct {
	Context    context.Context
	AuthURL    string
	DomainName string
	Username   string
	Password   string
	ProjectID  string
	HTTPClient *http.Client
}

// Client is the API's client, holding the authenticated identity session.
type Client struct {
	provider *gophercloud.ProviderClient
	identity *gophercloud.ServiceClient
	ctx      context.Context
}

func newHTTPClient() *http.Client {
	return &http.Client{
		Timeout: 120 * time.Second,
		Transport: &http.Transport{
			DialContext:         (&net.Dialer{Timeout: 60 * time.Second}).DialContext,
			TLSHandshakeTimeout: 60 * time.Second,
		},
	}
}

func authOptions(o ClientOptions) gophercloud.AuthOptions {
	return gophercloud.AuthOptions{
		IdentityEndpoint: o.AuthURL,
		Username:         o.Username,
		Password:         o.Password,
		DomainName:       o.DomainName,
		TenantID:         o.ProjectID,
		AllowReauth:      true,
	}
}

// NewClient authenticates, then installs the SDK's timed client: the authentication itself
// went through gophercloud's own client, which has no Timeout, and without a context.
func NewClient(o ClientOptions) (*Client, error) {
	if o.AuthURL == "" || o.Username == "" {
		return nil, errors.New("auth URL and user name are required")
	}
	provider, err := openstack.AuthenticatedClient(authOptions(o)) // want `openstack.AuthenticatedClient takes no context and its own client has no Timeout, so a stalled server hangs this call`
	if err != nil {
		return nil, fmt.Errorf("authenticate: %w", err)
	}
	httpClient := o.HTTPClient
	if httpClient == nil {
		httpClient = newHTTPClient()
	}
	provider.HTTPClient = *httpClient
	identity, err := openstack.NewIdentityV3(provider)
	if err != nil {
		return nil, fmt.Errorf("identity client: %w", err)
	}
	ctx := o.Context
	if ctx == nil {
		ctx = context.Background()
	}
	provider.Context = ctx
	return &Client{provider: provider, identity: identity, ctx: ctx}, nil
}

// NewClientTimed installs the timed client first and authenticates with the caller's context.
func NewClientTimed(ctx context.Context, o ClientOptions) (*Client, error) {
	provider, err := openstack.NewClient(o.AuthURL)
	if err != nil {
		return nil, err
	}
	provider.HTTPClient = *newHTTPClient()
	if err := openstack.AuthenticateWithContext(ctx, provider, authOptions(o)); err != nil {
		return nil, fmt.Errorf("authenticate: %w", err)
	}
	identity, err := openstack.NewIdentityV3(provider)
	if err != nil {
		return nil, err
	}
	return &Client{provider: provider, identity: identity, ctx: ctx}, nil
}

// NewClientWithContext authenticates with the caller's context: the caller's deadline bounds it.
func NewClientWithContext(ctx context.Context, o ClientOptions) (*Client, error) {
	provider, err := openstack.AuthenticatedClientWithContext(ctx, authOptions(o))
	if err != nil {
		return nil, fmt.Errorf("authenticate: %w", err)
	}
	provider.HTTPClient = *newHTTPClient()
	return &Client{provider: provider, ctx: ctx}, nil
}

// ProviderV2 authenticates with gophercloud v2, which takes the caller's context.
func ProviderV2(ctx context.Context, authURL, user, password string) (*gcv2.ProviderClient, error) {
	return openstackv2.AuthenticatedClient(ctx, gcv2.AuthOptions{IdentityEndpoint: authURL, Username: user, Password: password})
}

// ProviderV2Background authenticates with gophercloud v2 under a background context: nothing bounds it.
func ProviderV2Background(authURL, user, password string) (*gcv2.ProviderClient, error) {
	return openstackv2.AuthenticatedClient(context.Background(), gcv2.AuthOptions{IdentityEndpoint: authURL, Username: user, Password: password}) // related "openstackauth.go:119: context.Background() has no deadline" // want `openstack.AuthenticatedClient's context has no deadline and its own client has no Timeout`
}
