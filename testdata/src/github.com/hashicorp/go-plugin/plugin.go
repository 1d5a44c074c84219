// Package plugin is a stub of github.com/hashicorp/go-plugin (public signatures only).
package plugin

import (
	"context"

	"google.golang.org/grpc"
)

// GRPCBroker hands out connections between the host and its plugin subprocesses.
type GRPCBroker struct{}

func (b *GRPCBroker) Dial(id uint32) (*grpc.ClientConn, error) { return &grpc.ClientConn{}, nil }
func (b *GRPCBroker) NextId() uint32                           { return 0 }

// GRPCPlugin is implemented by plugins served over gRPC.
type GRPCPlugin interface {
	GRPCServer(broker *GRPCBroker, s *grpc.Server) error
	GRPCClient(ctx context.Context, broker *GRPCBroker, c *grpc.ClientConn) (interface{}, error)
}
