// Package gophercloud is a stub of github.com/gophercloud/gophercloud v1.
package gophercloud

import (
	"context"
	"net/http"
)

type AuthOptions struct {
	IdentityEndpoint string
	Username         string
	Password         string
	DomainName       string
	TenantID         string
	AllowReauth      bool
}

// ProviderClient sends every request through HTTPClient, the zero http.Client unless set.
type ProviderClient struct {
	IdentityBase     string
	IdentityEndpoint string
	HTTPClient       http.Client
	Context          context.Context
}

// Request sends a request through the provider's HTTPClient.
func (client *ProviderClient) Request(method, url string) (*http.Response, error) {
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		return nil, err
	}
	if client.Context != nil {
		req = req.WithContext(client.Context)
	}
	return client.HTTPClient.Do(req)
}

type ServiceClient struct {
	*ProviderClient
	Endpoint string
}
