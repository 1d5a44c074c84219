package calls

import (
	"context"

	"github.com/gophercloud/gophercloud"
	"github.com/gophercloud/gophercloud/openstack"
)

// gophercloud v1 authenticates through the zero http.Client of the provider it makes.
func authenticate(ctx context.Context, opts gophercloud.AuthOptions) { // want authenticate:`passes the context of parameter 0 to openstack.AuthenticatedClientWithContext at gophercloud.go:13`
	openstack.AuthenticatedClient(opts)                 // want `HTTP call openstack.AuthenticatedClient: unbounded \(the http.Client openstack.AuthenticatedClient makes for itself; no context\)`
	openstack.AuthenticatedClientWithContext(ctx, opts) // want `HTTP call openstack.AuthenticatedClientWithContext: unknown \(context from parameter 0; through the http.Client openstack.AuthenticatedClientWithContext makes for itself\)`
}
