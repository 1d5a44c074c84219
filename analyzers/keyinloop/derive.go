package keyinloop

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/edit"
	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/report"
	"github.com/idemlint/idemlint/analyzers/internal/syntax"
	"github.com/idemlint/idemlint/analyzers/keys"
	"github.com/idemlint/idemlint/analyzers/retryscope"
)

// Keys made in a scope that a framework runs again (an activity, a message handler, a
// reconciler): there is no statement before the first run to move the key to, so the fix
// derives the key from what the framework delivers again with the same identity.

// frameworkScope returns the innermost of the scopes that a framework runs again, or nil.
func frameworkScope(enclosing []*retryscope.Scope) *retryscope.Scope {
	for _, s := range enclosing {
		if s.Kind.FromFramework() {
			return s
		}
	}
	return nil
}

// checkRegistered reports the functions of other packages that this package hands to a
// framework and that make and send a new key on every call.
func (c *checker) checkRegistered() {
	for _, s := range c.scopes.Scopes {
		if s.Fn != nil || s.Func == nil || !s.Kind.FromFramework() || s.Node == nil {
			continue
		}
		f, ok := c.keys.MintsIn(s.Func)
		if !ok {
			continue
		}
		c.rep.Report(analysis.Diagnostic{
			Pos: s.Node.Pos(), End: s.Node.End(),
			Message: report.Fit(
				fmt.Sprintf("%s makes a new idempotency key on every call, and %s runs it again when it fails, so its retries cannot be deduplicated; derive the key from %s",
					flow.Name(s.Func, c.pass.Pkg), s.Framework, s.IdentityHint()),
				fmt.Sprintf("%s makes a new idempotency key per call, and %s retries it: retries cannot be deduplicated; derive it from %s",
					flow.Name(s.Func, c.pass.Pkg), s.Framework, s.IdentityWhat()),
				fmt.Sprintf("%s makes a new idempotency key per call, which %s retries; derive it from %s",
					flow.Name(s.Func, c.pass.Pkg), s.Framework, s.IdentityWhat()),
				fmt.Sprintf("%s: a new idempotency key per call, which %s retries; derive it from %s",
					flow.Name(s.Func, c.pass.Pkg), s.Framework, s.IdentityWhat())),
			Related: []analysis.RelatedInformation{{Pos: s.Node.Pos(), End: s.Node.End(), Message: "key made by " + f.Generator}},
		})
	}
}

// deriveFix replaces the generator call with idempotency.DeriveKey(identity, purpose), where
// identity is the scope's stable identity written with a variable in scope at the call. It is
// offered when the replaced value is a string: the generator's result, or its String().
func (c *checker) deriveFix(call inspector.Cursor, s *retryscope.Scope) (analysis.SuggestedFix, bool) {
	id := s.Identity
	if id == nil || id.Expr == "" {
		return analysis.SuggestedFix{}, false
	}
	target, parent := ast.Expr(call.Node().(*ast.CallExpr)), call.Parent().Node()
	if sc, ok := stringOf(call); ok {
		target, parent = sc, call.Parent().Parent().Parent().Node()
	}
	if !isString(c.pass.TypesInfo.TypeOf(target)) {
		return analysis.SuggestedFix{}, false
	}
	v := c.visibleVar(id, target.Pos())
	if v == nil {
		return analysis.SuggestedFix{}, false
	}
	file := syntax.File(c.pass, target.Pos())
	if file == nil {
		return analysis.SuggestedFix{}, false
	}
	w := edit.NewWriter(c.pass, file)
	text := strings.ReplaceAll(id.Expr, "$v", v.Name())
	names := make([]string, 0, len(id.Imports))
	for name := range id.Imports {
		names = append(names, name)
	}
	slices.Sort(names)
	var imports []analysis.TextEdit
	for _, name := range names {
		local, edits := edit.Import(c.pass.TypesInfo, c.pass.Pkg, file, id.Imports[name], nil, target.Pos())
		text = strings.ReplaceAll(text, "{"+name+"}", local)
		imports = append(imports, edits...)
	}
	derived, edits := w.DeriveKey(text, c.purpose(s), target.Pos(), parent)
	imports = append(edits, imports...)
	imports = append(imports, edit.Unimport(c.pass.Fset, c.pass.TypesInfo, file, target)...) // the generator's package, if nothing else uses it
	return analysis.SuggestedFix{
		Message:   "Derive the key from " + id.What,
		TextEdits: append(imports, analysis.TextEdit{Pos: target.Pos(), End: target.End(), NewText: []byte(derived)}),
	}, true
}

// stringOf returns the call of String() on the value of call (uuid.New().String()), if any.
func stringOf(call inspector.Cursor) (*ast.CallExpr, bool) {
	sel, ok := call.Parent().Node().(*ast.SelectorExpr)
	if !ok || sel.X != call.Node() || sel.Sel.Name != "String" {
		return nil, false
	}
	sc, ok := call.Parent().Parent().Node().(*ast.CallExpr)
	return sc, ok && sc.Fun == sel && len(sc.Args) == 0
}

func isString(t types.Type) bool {
	b, ok := t.(*types.Basic)
	return ok && b.Kind() == types.String
}

// visibleVar returns the first of the identity's variables that holds it at pos and that
// its name refers to there.
func (c *checker) visibleVar(id *retryscope.Identity, pos token.Pos) *types.Var {
	for _, iv := range id.Vars {
		if iv.From > pos {
			continue
		}
		scope := c.pass.Pkg.Scope().Innermost(pos)
		if scope == nil {
			continue
		}
		if _, obj := scope.LookupParent(iv.Var.Name(), pos); obj == iv.Var && !c.replaced(iv.Var) {
			return iv.Var
		}
	}
	return nil
}

// purpose names the key's use in DeriveKey: the function that runs (the one holding a handler
// loop or literal), numbered from the second key derived in the same scope.
func (c *checker) purpose(s *retryscope.Scope) string {
	name := "key"
	switch {
	case s.Loop == nil && s.Func != nil:
		name = s.Func.Name()
	case s.Fn != nil:
		fn := s.Fn
		fn = flow.Root(fn)
		name = fn.Name()
	}
	if c.derived == nil {
		c.derived = make(map[*retryscope.Scope]int)
	}
	c.derived[s]++
	if n := c.derived[s]; n > 1 {
		return fmt.Sprintf("%s-%d", name, n)
	}
	return name
}

// onlyReturned reports whether every sink of a key made in a framework scope's function is a
// field of a struct that the function only returns: an activity that makes a key for its
// workflow sends nothing, and the workflow records its result once.
func onlyReturned(sinks []keys.Sink, s *retryscope.Scope) bool {
	for _, sink := range sinks {
		st, ok := sink.Instr.(*ssa.Store)
		if !ok || st.Parent() != s.Fn {
			return false
		}
		fa, ok := st.Addr.(*ssa.FieldAddr)
		if !ok || !returnedOnly(fa.X, 0) {
			return false
		}
	}
	return len(sinks) > 0
}

// returnedOnly reports whether v, a struct pointer, is only read, loaded and returned.
func returnedOnly(v ssa.Value, depth int) bool {
	refs := v.Referrers()
	if refs == nil || depth > 4 {
		return false
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.Return, *ssa.FieldAddr, *ssa.DebugRef:
		case *ssa.Store:
			if r.Val == v {
				return false // kept somewhere
			}
		case *ssa.UnOp, *ssa.MakeInterface, *ssa.ChangeType:
			if !returnedOnly(r.(ssa.Value), depth+1) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// replaced reports whether v is assigned a value other than one derived from itself
// (ctx, cancel := context.WithTimeout(ctx, d) keeps an activity's context; ctx =
// context.Background() does not).
func (c *checker) replaced(v *types.Var) bool {
	file := syntax.File(c.pass, v.Pos())
	if file == nil {
		return true
	}
	bad := false
	ast.Inspect(file, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || bad {
			return !bad
		}
		for i, l := range as.Lhs {
			id, ok := ast.Unparen(l).(*ast.Ident)
			if !ok || c.pass.TypesInfo.Uses[id] != v {
				continue // not v, or its declaration
			}
			rhs := as.Rhs[0]
			if len(as.Rhs) == len(as.Lhs) {
				rhs = as.Rhs[i]
			}
			call, ok := ast.Unparen(rhs).(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				bad = true
				continue
			}
			arg, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
			if !ok || c.pass.TypesInfo.ObjectOf(arg) != v {
				bad = true
			}
		}
		return !bad
	})
	return bad
}
