// Package v1 is a stub of k8s.io/apimachinery/pkg/apis/meta/v1.
package v1

import "k8s.io/apimachinery/pkg/types"

type TypeMeta struct {
	Kind       string
	APIVersion string
}

type ObjectMeta struct {
	Name            string
	Namespace       string
	UID             types.UID
	ResourceVersion string
	Generation      int64
	Annotations     map[string]string
}

func (m *ObjectMeta) GetName() string            { return m.Name }
func (m *ObjectMeta) GetNamespace() string       { return m.Namespace }
func (m *ObjectMeta) GetUID() types.UID          { return m.UID }
func (m *ObjectMeta) GetGeneration() int64       { return m.Generation }
func (m *ObjectMeta) GetResourceVersion() string { return m.ResourceVersion }
func (m *ObjectMeta) GetAnnotations() map[string]string {
	return m.Annotations
}

type Object interface {
	GetName() string
	GetNamespace() string
	GetUID() types.UID
	GetGeneration() int64
	GetResourceVersion() string
	GetAnnotations() map[string]string
}
