// Package client is a stub of go.temporal.io/sdk/client (v1.51.0, public signatures only).
package client

type Client interface{ Close() }

type Options struct{ HostPort, Namespace string }

func Dial(options Options) (Client, error) { return nil, nil }
