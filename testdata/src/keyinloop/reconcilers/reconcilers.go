// Package reconcilers holds controllers that create cloud resources for Kubernetes objects.
// A reconciler runs again after an error, so a client token made inside it is new every
// time; the fix derives it from the object's UID and generation.
package reconcilers

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/google/uuid"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

type Instance struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Spec   struct{ ImageID string }
	Status struct{ InstanceID string }
}

func (i *Instance) DeepCopyObject() runtime.Object { return i }

type InstanceReconciler struct {
	client.Client
	EC2 *ec2.Client
}

func (r *InstanceReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	logger := log.FromContext(ctx)
	var inst Instance
	if err := r.Get(ctx, req.NamespacedName, &inst); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if inst.Status.InstanceID != "" {
		return ctrl.Result{}, nil
	}
	_, err := r.EC2.RunInstances(ctx, &ec2.RunInstancesInput{
		ImageId:     aws.String(inst.Spec.ImageID),
		MinCount:    aws.Int32(1),
		MaxCount:    aws.Int32(1),
		ClientToken: aws.String(uuid.NewString()), // related "reconcilers.go:36: reconciler" "reconcilers.go:49: sent as field ClientToken" // want `uuid\.NewString makes a new idempotency key per run; derive it from the object's UID and generation`
	})
	if err != nil {
		logger.Error(err, "launching instance", "instance", req.NamespacedName)
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.Status().Update(ctx, &inst)
}

// VolumeReconciler makes its token before it has fetched the object: no fix.
type VolumeReconciler struct {
	client.Client
	EC2 *ec2.Client
}

func (r *VolumeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	token := uuid.NewString() // related "reconcilers.go:64: reconciler" "reconcilers.go:70: sent as field ClientToken" // want `uuid\.NewString makes a new idempotency key per run; derive it from the object's UID and generation`
	inst := &Instance{}
	if err := r.Get(ctx, req.NamespacedName, inst); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if _, err := r.EC2.RunInstances(ctx, &ec2.RunInstancesInput{ImageId: aws.String(inst.Spec.ImageID), ClientToken: &token}); err != nil {
		return ctrl.Result{}, fmt.Errorf("launching %s: %w", req.NamespacedName, err)
	}
	return ctrl.Result{}, nil
}

// Not reported: the token is a hash of a stable name (as aws-ebs-csi-driver derives it).
type DiskReconciler struct {
	client.Client
	EC2 *ec2.Client
}

func (r *DiskReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var inst Instance
	if err := r.Get(ctx, req.NamespacedName, &inst); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	sum := sha256.Sum256([]byte(req.Namespace + "/" + req.Name))
	token := hex.EncodeToString(sum[:])
	if _, err := r.EC2.RunInstances(ctx, &ec2.RunInstancesInput{ImageId: aws.String(inst.Spec.ImageID), ClientToken: aws.String(token)}); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}
