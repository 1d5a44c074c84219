// Package workerctl is a build daemon's client library: it dials the daemon and calls its
// control service on the connection, with no retry of its own (gRPC's own replay aside).
package workerctl

import (
	"context"
	"fmt"

	"google.golang.org/grpc"
)

type WorkerInfo struct {
	ID       string
	Platform string
}

type listWorkersResponse struct {
	Workers []*WorkerInfo
}

type Client struct {
	conn *grpc.ClientConn
}

func New(ctx context.Context, addr string, opts ...grpc.DialOption) (*Client, error) {
	conn, err := grpc.DialContext(ctx, addr, opts...)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", addr, err)
	}
	return &Client{conn: conn}, nil
}

// ListWorkers asks the daemon which workers it runs.
func (c *Client) ListWorkers(ctx context.Context) ([]*WorkerInfo, error) {
	var resp listWorkersResponse
	if err := c.conn.Invoke(ctx, "/moby.buildkit.v1.Control/ListWorkers", struct{}{}, &resp); err != nil {
		return nil, fmt.Errorf("list workers: %w", err)
	}
	return resp.Workers, nil
}

func (c *Client) Close() error { return c.conn.Close() }
