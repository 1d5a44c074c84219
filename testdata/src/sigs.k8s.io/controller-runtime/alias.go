// Package controllerruntime is a stub of sigs.k8s.io/controller-runtime (v0.25.2): the
// aliases controllers use.
package controllerruntime

import "sigs.k8s.io/controller-runtime/pkg/reconcile"

type (
	Request = reconcile.Request
	Result  = reconcile.Result
)
