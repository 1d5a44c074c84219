package retryscope

import (
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// Errors made from a Retry-After header: an unexported error type of the package whose every
// value the package makes is computed from what http.Header.Get("Retry-After") returned
// (retryAfterError(secs * time.Second)) stands for a server that turned the request away and
// said when to come back (429, 503): the request had no effect, and the wait it carries is the
// server's.

// retryAfterType reports whether t (or what it points to) is such a type of pkg.
func retryAfterType(t types.Type, pkg *ssa.Package) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := t.(*types.Named)
	if !ok || pkg == nil || named.Obj().Pkg() != pkg.Pkg || named.Obj().Exported() {
		return false // another package's, or one other packages may make too
	}
	found := false
	for _, fn := range packageFuncs(pkg) {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				mi, ok := instr.(*ssa.MakeInterface)
				if !ok || !typeis.ErrorLike(mi.Type()) || !types.Identical(mi.X.Type(), t) && !types.Identical(mi.X.Type(), types.NewPointer(t)) {
					continue // not one made into an error (errors.As(err, &ra) hands a pointer over as any)
				}
				if !fromRetryAfter(mi.X) {
					return false
				}
				found = true
			}
		}
	}
	return found
}

// fromRetryAfter reports whether v is computed from a Retry-After header's value.
func fromRetryAfter(v ssa.Value) bool {
	found := false
	flow.Backward(v, 64, func(x ssa.Value) bool {
		c, ok := x.(*ssa.Call)
		if !ok || found {
			return !found
		}
		id := flow.ID(flow.Callee(c.Common()))
		if id.Pkg == "net/http" && id.Recv == "Header" && (id.Name == "Get" || id.Name == "Values") && len(c.Call.Args) == 2 {
			if k, ok := flow.Unwrap(c.Call.Args[1]).(*ssa.Const); ok && k.Value != nil && k.Value.Kind() == constant.String {
				found = strings.EqualFold(constant.StringVal(k.Value), "Retry-After")
			}
		}
		return !found
	})
	return found
}

// packageFuncs returns the functions of pkg with bodies: its functions and methods, and the
// function literals in them.
func packageFuncs(pkg *ssa.Package) []*ssa.Function {
	var out []*ssa.Function
	var add func(fn *ssa.Function)
	add = func(fn *ssa.Function) {
		if fn == nil || len(fn.Blocks) == 0 {
			return
		}
		out = append(out, fn)
		for _, a := range fn.AnonFuncs {
			add(a)
		}
	}
	for _, m := range pkg.Members {
		switch m := m.(type) {
		case *ssa.Function:
			add(m)
		case *ssa.Type:
			if named, ok := m.Type().(*types.Named); ok {
				for i := range named.NumMethods() {
					add(pkg.Prog.FuncValue(named.Method(i)))
				}
			}
		}
	}
	return out
}
