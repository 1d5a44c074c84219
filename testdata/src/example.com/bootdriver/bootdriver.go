// Package bootdriver starts a build machine through its control API and hands back a
// connection to it. Boot goes round only while the machine's daemon is not running yet.
package bootdriver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
)

var ErrNotRunning = errors.New("driver not running")

type Info struct {
	Status string `json:"status"`
	Addr   string `json:"addr"`
}

type Driver struct {
	Endpoint string
	HTTP     *http.Client
}

func (d *Driver) info(ctx context.Context) (*Info, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, d.Endpoint+"/v1/machine", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := d.HTTP.Do(req)
	if err != nil {
		return nil, fmt.Errorf("machine info: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("machine info: status %d", resp.StatusCode)
	}
	var in Info
	if err := json.NewDecoder(resp.Body).Decode(&in); err != nil {
		return nil, err
	}
	return &in, nil
}

// connect dials the machine's daemon; a refused dial means it has not come up yet.
func (d *Driver) connect(ctx context.Context, addr string) (net.Conn, error) {
	var dialer net.Dialer
	conn, err := dialer.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, ErrNotRunning
	}
	return conn, nil
}

// Boot asks for the machine and connects to its daemon, connecting again (up to three
// tries) only while the daemon is not running.
func Boot(ctx context.Context, d *Driver) (net.Conn, error) {
	try := 0
	for {
		in, err := d.info(ctx)
		if err != nil {
			return nil, err
		}
		try++
		conn, err := d.connect(ctx, in.Addr)
		if err != nil {
			if errors.Is(err, ErrNotRunning) && try <= 2 {
				continue
			}
			return nil, err
		}
		return conn, nil
	}
}
