package boardsdk

import "net/http"

// TokenTransport adds a personal access token to every request.
type TokenTransport struct {
	Token     string
	Transport http.RoundTripper
}

// RoundTrip sets the Authorization header and sends req through the base transport.
func (t *TokenTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	r.Header.Set("Authorization", "Bearer "+t.Token)
	base := t.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	return base.RoundTrip(r)
}

// ---- Reported with BasicAuthTransport.Client, once for the package ----

// Client returns an http.Client that authenticates with the token, for NewClient.
func (t *TokenTransport) Client() *http.Client {
	return &http.Client{Transport: t}
}

// NewBearerClient returns an http.Client for NewClient that sends token with every request.
func NewBearerClient(token string) *http.Client {
	return &http.Client{Transport: &TokenTransport{Token: token}}
}
