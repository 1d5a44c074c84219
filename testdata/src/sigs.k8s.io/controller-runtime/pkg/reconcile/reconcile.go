// Package reconcile is a stub of sigs.k8s.io/controller-runtime/pkg/reconcile (v0.25.2).
package reconcile

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/types"
)

type Result struct {
	Requeue      bool
	RequeueAfter time.Duration
}

type Request struct {
	types.NamespacedName
}

type TypedReconciler[request comparable] interface {
	Reconcile(context.Context, request) (Result, error)
}

type Reconciler = TypedReconciler[Request]

type TypedFunc[request comparable] func(context.Context, request) (Result, error)

type Func = TypedFunc[Request]

func TerminalError(wrapped error) error { return wrapped }
