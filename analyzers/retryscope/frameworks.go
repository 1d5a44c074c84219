package retryscope

import "github.com/idemlint/idemlint/analyzers/internal/knowledge"

// The frameworks are data in internal/knowledge (framework.go, one file per framework); the
// model reads them through this wrapper, which gives each its scope kind and its library's
// engine (settings.go).

// A framework is one of knowledge's frameworks as the model reads it.
type framework struct {
	*knowledge.Framework
	kind Kind
	lib  *library // its packages, defaults and the settings of the options it reads
}

type (
	shape    = knowledge.Shape
	identity = knowledge.Identity
)

// frameworkKinds are the scope kinds of knowledge's framework kinds.
var frameworkKinds = map[knowledge.FrameworkKind]Kind{
	knowledge.Activities:  Activity,
	knowledge.Handlers:    Handler,
	knowledge.Reconcilers: Reconciler,
}

// frameworks are knowledge's frameworks, in its order.
var frameworks = func() []*framework {
	var out []*framework
	for _, f := range knowledge.Frameworks {
		out = append(out, &framework{Framework: f, kind: frameworkKinds[f.Kind], lib: &library{Library: f.Library}})
	}
	return out
}()
