// Package openstack is a stub of github.com/gophercloud/gophercloud/v2/openstack.
package openstack

import (
	"context"
	"net/http"

	"github.com/gophercloud/gophercloud/v2"
)

// AuthenticatedClient makes a ProviderClient and authenticates it with ctx.
func AuthenticatedClient(ctx context.Context, options gophercloud.AuthOptions) (*gophercloud.ProviderClient, error) {
	client := &gophercloud.ProviderClient{IdentityEndpoint: options.IdentityEndpoint}
	req, err := http.NewRequestWithContext(ctx, "POST", options.IdentityEndpoint+"/v3/auth/tokens", nil)
	if err != nil {
		return nil, err
	}
	_, err = client.HTTPClient.Do(req)
	return client, err
}
