// Package controlplane keeps the agent's stub for the control plane: the program's main dials
// the connection and hands it to Init.
package controlplane

import (
	"example.com/greeterpb"
	"google.golang.org/grpc"
)

var (
	Client greeterpb.GreeterClient
	TaskID string
)

func Init(conn *grpc.ClientConn, taskID string) {
	Client = greeterpb.NewGreeterClient(conn)
	TaskID = taskID
}
