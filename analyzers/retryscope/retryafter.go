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

// retryAfterTypes returns, for each unexported named type of the package that funcs (the
// package's functions) make into an error, whether every such value is made from a
// Retry-After header.
func retryAfterTypes(funcs []*ssa.Function) map[*types.TypeName]bool {
	made := make(map[*types.TypeName]bool)
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				mi, ok := instr.(*ssa.MakeInterface)
				if !ok || !typeis.ErrorLike(mi.Type()) {
					continue // not one made into an error (errors.As(err, &ra) hands a pointer over as any)
				}
				tn := ownTypeName(mi.X.Type(), fn.Pkg)
				if tn == nil {
					continue
				}
				ok, seen := made[tn]
				made[tn] = (ok || !seen) && fromRetryAfter(mi.X)
			}
		}
	}
	return made
}

// ownTypeName returns the name of t (or of what it points to) when it is an unexported named
// type of pkg: one only pkg can make.
func ownTypeName(t types.Type, pkg *ssa.Package) *types.TypeName {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := t.(*types.Named)
	if !ok || pkg == nil || named.Obj().Pkg() != pkg.Pkg || named.Obj().Exported() {
		return nil
	}
	return named.Obj()
}

// retryAfterType reports whether t (or what it points to) is an error type of the package
// whose every value is made from a Retry-After header.
func (r *Result) retryAfterType(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := t.(*types.Named)
	return ok && r.afterTypes[named.Obj()]
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
