// Package gophercloud is a stub of github.com/gophercloud/gophercloud/v2.
package gophercloud

import "net/http"

type AuthOptions struct {
	IdentityEndpoint string
	Username         string
	Password         string
}

type ProviderClient struct {
	IdentityEndpoint string
	HTTPClient       http.Client
}
