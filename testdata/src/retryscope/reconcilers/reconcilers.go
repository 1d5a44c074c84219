// Package reconcilers holds controller-runtime reconcilers: run again with backoff after an
// error, without a cap.
package reconcilers

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

type Widget struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Spec struct{ Size int }
}

func (w *Widget) DeepCopyObject() runtime.Object { return w }

type WidgetReconciler struct {
	client.Client
}

func (r *WidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want `reconciler \(controller-runtime\): attempts=unbounded wait=backoff deadline=none` Reconcile:`run again by controller-runtime as a reconciler`
	var w Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if w.Spec.Size < 0 {
		return ctrl.Result{}, reconcile.TerminalError(fmt.Errorf("widget %s: negative size", req.NamespacedName))
	}
	return ctrl.Result{}, nil
}

// A reconcile.Func.
func reconcileGadget(ctx context.Context, req reconcile.Request) (reconcile.Result, error) { // want `reconciler \(controller-runtime\): attempts=unbounded` reconcileGadget:`run again by controller-runtime as a reconciler`
	return reconcile.Result{}, nil
}

var _ = reconcile.Func(reconcileGadget)

// Not reconcilers: another signature.
func (r *WidgetReconciler) sync(ctx context.Context, w *Widget) error { return nil }
