package dial

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// ---- Not reported: a transport's dial hooks dial for its requests, which the client bounds ----

// dockerAPI talks to a daemon over the socket or address it is configured with.
type dockerAPI struct {
	client http.Client
}

func newDockerAPI(proto, addr string, tlsConf *tls.Config) *dockerAPI {
	return &dockerAPI{client: http.Client{
		Transport: &http.Transport{
			DialContext: func(_ context.Context, _, _ string) (net.Conn, error) {
				return net.Dial(proto, addr)
			},
			DialTLS: func(network, a string) (net.Conn, error) {
				return tls.Dial(network, a, tlsConf)
			},
		},
		Timeout: 5 * time.Second,
	}}
}

func (d *dockerAPI) version() (string, error) {
	resp, err := d.client.Get("http://docker/version")
	if err != nil {
		return "", fmt.Errorf("docker version: %w", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

// ---- Reported: the same dial, called by the program itself ----

func (d *dockerAPI) raw(proto, addr string) (net.Conn, error) {
	conn, err := net.Dial(proto, addr) // want `net\.Dial has no timeout, so an unresponsive host blocks this call for minutes; use a net\.Dialer with a Timeout`
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", addr, err)
	}
	return conn, nil
}
