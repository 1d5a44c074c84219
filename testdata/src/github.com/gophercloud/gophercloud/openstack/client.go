// Package openstack is a stub of github.com/gophercloud/gophercloud/openstack (v1).
package openstack

import (
	"context"

	"github.com/gophercloud/gophercloud"
)

// NewClient prepares an unauthenticated ProviderClient.
func NewClient(endpoint string) (*gophercloud.ProviderClient, error) {
	return &gophercloud.ProviderClient{IdentityBase: endpoint, IdentityEndpoint: endpoint}, nil
}

// AuthenticatedClientWithContext makes a ProviderClient and authenticates it.
func AuthenticatedClientWithContext(ctx context.Context, options gophercloud.AuthOptions) (*gophercloud.ProviderClient, error) {
	client, err := NewClient(options.IdentityEndpoint)
	if err != nil {
		return nil, err
	}
	if err := AuthenticateWithContext(ctx, client, options); err != nil {
		return nil, err
	}
	return client, nil
}

// AuthenticatedClient is a compatibility wrapper around AuthenticatedClientWithContext.
func AuthenticatedClient(options gophercloud.AuthOptions) (*gophercloud.ProviderClient, error) {
	return AuthenticatedClientWithContext(context.Background(), options)
}

// AuthenticateWithContext authenticates against the identity service.
func AuthenticateWithContext(ctx context.Context, client *gophercloud.ProviderClient, options gophercloud.AuthOptions) error {
	client.Context = ctx
	_, err := client.Request("POST", options.IdentityEndpoint+"/v3/auth/tokens")
	return err
}

// Authenticate is a compatibility wrapper around AuthenticateWithContext.
func Authenticate(client *gophercloud.ProviderClient, options gophercloud.AuthOptions) error {
	return AuthenticateWithContext(context.Background(), client, options)
}

// NewIdentityV3 makes a client of the identity service.
func NewIdentityV3(client *gophercloud.ProviderClient) (*gophercloud.ServiceClient, error) {
	return &gophercloud.ServiceClient{ProviderClient: client, Endpoint: client.IdentityBase + "v3/"}, nil
}
