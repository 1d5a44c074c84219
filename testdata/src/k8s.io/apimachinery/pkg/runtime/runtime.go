// Package runtime is a stub of k8s.io/apimachinery/pkg/runtime.
package runtime

type Object interface {
	DeepCopyObject() Object
}
