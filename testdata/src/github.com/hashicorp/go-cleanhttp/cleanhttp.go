// Package cleanhttp is a stub of github.com/hashicorp/go-cleanhttp.
package cleanhttp

import "net/http"

func DefaultTransport() *http.Transport       { return &http.Transport{} }
func DefaultPooledTransport() *http.Transport { return &http.Transport{} }
func DefaultClient() *http.Client             { return &http.Client{} }
func DefaultPooledClient() *http.Client       { return &http.Client{} }
