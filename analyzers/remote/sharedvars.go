package remote

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/testcode"
)

// varFact marks an exported package variable that holds an http.Client its package makes
// without a Timeout, once, when it is initialised, and never replaces or changes (a module's
// shared client: var DefaultClient = &http.Client{Transport: ua}): the packages that send
// through it send through a client without a timeout, as through http.DefaultClient.
type varFact struct {
	Name string // as the reports say: "httputil.DefaultClient"
}

func (*varFact) AFact() {}

func (f *varFact) String() string { return "shared client without a timeout " + f.Name }

// exportVarFacts exports the varFacts of the package's variables.
func (st *state) exportVarFacts() {
	if st.pass.Pkg.Name() == "main" {
		return
	}
	for _, m := range st.pkg.Members {
		g, ok := m.(*ssa.Global)
		if !ok || g.Object() == nil || !g.Object().Exported() || st.globalTouched[g] || testcode.At(st.pass, g.Pos()) {
			continue
		}
		if p, ok := g.Type().(*types.Pointer); !ok || objTypeOf(p.Elem()) != knowledge.HTTPClient {
			continue
		}
		stores := st.prodGlobals(g)
		if len(stores) != 1 {
			continue
		}
		a, ok := stores[0].(*ssa.Alloc)
		if !ok || !initFunc(a.Parent()) {
			continue
		}
		v := st.walker(a.Parent()).obj(a, nil, knowledge.HTTPClient)
		if o := v.origin; v.k != vUnbounded || o == nil || o.Kind != Local || o.Transport != "" || o.Zeroed.IsValid() || o.Unset.IsValid() {
			continue
		}
		st.pass.ExportObjectFact(g.Object(), &varFact{Name: st.pass.Pkg.Name() + "." + g.Name()})
	}
}

// initFunc reports whether fn initialises its package: the package initializer, or an init
// function.
func initFunc(fn *ssa.Function) bool {
	return fn != nil && fn.Parent() == nil && fn.Signature.Recv() == nil && (fn.Synthetic == "package initializer" || strings.HasPrefix(fn.Name(), "init#"))
}

// sharedClient returns the name of g, another package's variable that holds a client without
// a timeout: a library's the tables know, or one its varFact marks (shared).
func (st *state) sharedClient(g *ssa.Global) (name string, shared bool) {
	if name, ok := knowledge.NoTimeoutVars[globalID(g)]; ok {
		return name, false
	}
	obj := g.Object()
	if obj == nil || obj.Pkg() == nil || obj.Pkg() == st.pass.Pkg {
		return "", false
	}
	var f varFact
	if !st.pass.ImportObjectFact(obj, &f) {
		return "", false
	}
	return f.Name, true
}
