// Package context is a stand-in for golang.org/x/net/context: the standard library's context
// under its pre-Go 1.7 path, its types aliases, its functions calling the standard ones.
package context

import (
	"context"
	"time"
)

type Context = context.Context

type CancelFunc = context.CancelFunc

func Background() Context { return context.Background() }

func TODO() Context { return context.TODO() }

func WithCancel(parent Context) (Context, CancelFunc) { return context.WithCancel(parent) }

func WithDeadline(parent Context, d time.Time) (Context, CancelFunc) {
	return context.WithDeadline(parent, d)
}

func WithTimeout(parent Context, timeout time.Duration) (Context, CancelFunc) {
	return context.WithTimeout(parent, timeout)
}

func WithValue(parent Context, key, val any) Context { return context.WithValue(parent, key, val) }
