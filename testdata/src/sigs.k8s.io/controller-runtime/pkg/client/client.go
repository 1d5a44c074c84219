// Package client is a stub of sigs.k8s.io/controller-runtime/pkg/client (v0.25.2, public
// signatures only).
package client

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

type ObjectKey = types.NamespacedName

type Object interface {
	metav1.Object
	runtime.Object
}

type GetOption interface{}
type UpdateOption interface{}

type Reader interface {
	Get(ctx context.Context, key ObjectKey, obj Object, opts ...GetOption) error
}

type Writer interface {
	Update(ctx context.Context, obj Object, opts ...UpdateOption) error
}

type StatusWriter interface {
	Update(ctx context.Context, obj Object, opts ...UpdateOption) error
}

type Client interface {
	Reader
	Writer
	Status() StatusWriter
}

func IgnoreNotFound(err error) error { return err }
