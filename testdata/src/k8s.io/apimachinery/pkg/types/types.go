// Package types is a stub of k8s.io/apimachinery/pkg/types.
package types

type UID string

type NamespacedName struct {
	Namespace string
	Name      string
}

func (n NamespacedName) String() string { return n.Namespace + "/" + n.Name }
