// Package metadata is a stub of google.golang.org/grpc/metadata.
package metadata

import "context"

type MD map[string][]string

func New(m map[string]string) MD                                                { return MD{} }
func Pairs(kv ...string) MD                                                     { return MD{} }
func AppendToOutgoingContext(ctx context.Context, kv ...string) context.Context { return ctx }
func NewOutgoingContext(ctx context.Context, md MD) context.Context             { return ctx }
func (md MD) Set(k string, vals ...string)                                      {}
func (md MD) Append(k string, vals ...string)                                   {}
