package remote

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// Forms: the request bodies that make a POST an OAuth 2.0 token request.

// grantForm reports whether the request body v is a form that names an OAuth 2.0 grant type
// (knowledge.GrantField): url.Values with that key, set in a literal or by Set or Add, or its
// encoding (strings.NewReader(form.Encode())), or a constant form text that holds it; also
// when a function of the package builds it (body, err := p.tokenParams()).
func grantForm(v ssa.Value) bool { return grantFormIn(v, 0) }

func grantFormIn(v ssa.Value, depth int) bool {
	found := false
	flow.Backward(v, 32, func(x ssa.Value) bool {
		switch x := x.(type) {
		case *ssa.Call:
			if callee := x.Call.StaticCallee(); depth < 2 && callee != nil && callee.Pkg != nil && callee.Pkg == x.Parent().Pkg {
				for ret := range flow.Returns(callee) {
					for _, r := range ret.Results {
						if !typeis.ErrorLike(r.Type()) && grantFormIn(r, depth+1) {
							found = true
						}
					}
				}
			}
		case *ssa.Const:
			if t, ok := flow.StringConst(x); ok && strings.Contains(t, knowledge.GrantField+"=") {
				found = true
			}
		case *ssa.MakeMap:
			found = found || setsGrant(x)
		case *ssa.Alloc:
			// A form whose address is handed on (addParams(&form, ...)): what its loads get.
			if p, ok := x.Type().Underlying().(*types.Pointer); ok && isForm(p.Elem()) {
				for _, r := range *x.Referrers() {
					if load, ok := r.(*ssa.UnOp); ok && load.Op == token.MUL {
						found = found || setsGrant(load)
					}
				}
			}
		}
		return !found
	})
	return found
}

// isForm reports whether t is url.Values, or map[string][]string.
func isForm(t types.Type) bool { return t.Underlying().String() == "map[string][]string" }

// setsGrant reports whether form, a url.Values value, is given the grant type field, in its
// literal or by Set or Add.
func setsGrant(form ssa.Value) bool {
	if !isForm(form.Type()) || form.Referrers() == nil {
		return false
	}
	for _, r := range *form.Referrers() {
		switch r := r.(type) {
		case *ssa.MapUpdate:
			if k, ok := flow.StringConst(r.Key); ok && k == knowledge.GrantField {
				return true
			}
		case ssa.CallInstruction:
			id := flow.ID(flow.Callee(r.Common()))
			if args := r.Common().Args; id.Pkg == "net/url" && id.Recv == "Values" && (id.Name == "Set" || id.Name == "Add") && len(args) > 1 {
				if k, ok := flow.StringConst(args[1]); ok && k == knowledge.GrantField {
					return true
				}
			}
		}
	}
	return false
}
