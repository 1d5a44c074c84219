// Package pluginhost runs greeter plugins as subprocesses (hashicorp/go-plugin) and calls
// them over the gRPC connection go-plugin hands it.
package pluginhost

import (
	"context"
	"fmt"

	"example.com/greeterpb"
	plugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
)

type GreeterPlugin struct{}

func (p *GreeterPlugin) GRPCServer(broker *plugin.GRPCBroker, s *grpc.Server) error { return nil }

func (p *GreeterPlugin) GRPCClient(ctx context.Context, broker *plugin.GRPCBroker, c *grpc.ClientConn) (interface{}, error) {
	return &greeterPluginClient{client: greeterpb.NewGreeterClient(c), broker: broker}, nil
}

type greeterPluginClient struct {
	client greeterpb.GreeterClient
	broker *plugin.GRPCBroker
}

// ---- Not reported: the plugin is a subprocess on this machine ----

func (g *greeterPluginClient) Greet(name string) (string, error) {
	reply, err := g.client.SayHello(context.Background(), &greeterpb.HelloRequest{Name: name})
	if err != nil {
		return "", fmt.Errorf("plugin greet: %w", err)
	}
	return reply.Message, nil
}

// CallBack dials the host back through the broker, as a plugin does.
func (g *greeterPluginClient) CallBack(id uint32, name string) (string, error) {
	conn, err := g.broker.Dial(id)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	reply, err := greeterpb.NewGreeterClient(conn).SayHello(context.Background(), &greeterpb.HelloRequest{Name: name})
	if err != nil {
		return "", fmt.Errorf("host greet: %w", err)
	}
	return reply.Message, nil
}

// ---- Reported: a greeter service across the network ----

func GreetRemote(addr, name string) (string, error) {
	conn, err := grpc.NewClient(addr)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	reply, err := greeterpb.NewGreeterClient(conn).SayHello(context.Background(), &greeterpb.HelloRequest{Name: name}) // related "pluginhost.go:59: context.Background() has no deadline" // want `GreeterClient\.SayHello's context has no deadline, so a stalled server hangs this call; use context\.WithTimeout`
	if err != nil {
		return "", fmt.Errorf("greet %s: %w", addr, err)
	}
	return reply.Message, nil
}
