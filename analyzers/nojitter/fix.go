package nojitter

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/idemlint/idemlint/analyzers/internal/edit"
	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/syntax"
	"github.com/idemlint/idemlint/analyzers/retryscope"
)

const runtimeRetry = "github.com/idemlint/idemlint/runtime/retry"

// wrapSleep wraps the duration of a standard wait (time.Sleep, time.After, time.NewTimer, a
// timer's Reset) in the runtime's full jitter, importing the runtime.
func (c *checker) wrapSleep(sl retryscope.Sleep) (analysis.SuggestedFix, bool) {
	if sl.Duration == nil {
		return analysis.SuggestedFix{}, false
	}
	id := flow.ID(flow.Callee(sl.Call.Common()))
	if id.Pkg != "time" || !(id.Recv == "" && (id.Name == "Sleep" || id.Name == "After" || id.Name == "NewTimer") ||
		id.Recv == "Timer" && id.Name == "Reset") {
		return analysis.SuggestedFix{}, false
	}
	cur, ok := c.calls.At(sl.Call.Pos())
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	call := cur.Node().(*ast.CallExpr)
	if len(call.Args) != 1 {
		return analysis.SuggestedFix{}, false
	}
	file := syntax.File(c.pass, call.Pos())
	text, ok := edit.Source(c.pass, call.Args[0])
	if file == nil || !ok {
		return analysis.SuggestedFix{}, false
	}
	name, edits := edit.AddImport(c.pass.Fset, c.pass.Pkg, file, runtimeRetry)
	edits = append(edits, analysis.TextEdit{Pos: call.Args[0].Pos(), End: call.Args[0].End(), NewText: []byte(name + ".FullJitter(" + text + ")")})
	return analysis.SuggestedFix{Message: "Add full jitter to the wait", TextEdits: edits}, true
}

// libraryFix turns jitter on where one option, constructor or field of a library turned it
// off or left it off.
func (c *checker) libraryFix(s *retryscope.Scope, set *retryscope.Setting) (analysis.SuggestedFix, bool) {
	if set == nil || !set.Pos.IsValid() {
		return analysis.SuggestedFix{}, false
	}
	var edits []analysis.TextEdit
	switch set.Name {
	case "DelayType": // avast/retry-go: DelayType(d) -> DelayType(CombineDelay(d, RandomDelay))
		call, q, ok := c.optionCall(set.Pos)
		if !ok || len(call.Args) != 1 {
			break
		}
		text, ok := edit.Source(c.pass, call.Args[0])
		if ok {
			edits = replace(call.Args[0], fmt.Sprintf("%s.CombineDelay(%s, %s.RandomDelay)", q, text, q))
		}
	case "WithRandomizationFactor": // cenkalti/backoff: the option's 0 -> the default factor
		call, q, ok := c.optionCall(set.Pos)
		if ok && len(call.Args) == 1 {
			edits = replace(call.Args[0], q+".DefaultRandomizationFactor")
		}
	case "ExponentialBackOff.RandomizationFactor": // cenkalti/backoff: the field's 0
		if v, q, ok := c.storedValue(set.Pos); ok {
			edits = replace(v, q+".DefaultRandomizationFactor")
		}
	case "NewExponential", "NewFibonacci", "NewConstant": // sethvargo: wrap in WithFullJitter
		call, q, ok := c.optionCall(set.Pos)
		if !ok || !imports(c.pass, "github.com/sethvargo/go-retry", "WithFullJitter") {
			break
		}
		if text, ok := edit.Source(c.pass, call); ok {
			edits = replace(call, fmt.Sprintf("%s.WithFullJitter(%s)", q, text))
		}
	case "Backoff.Jitter": // k8s wait.Backoff: Jitter: 0 -> 1.0
		if v, _, ok := c.storedValue(set.Pos); ok {
			edits = replace(v, "1.0")
		}
	case "Backoff{}": // k8s wait.Backoff literal without Jitter
		edits = c.addField(set.Pos, "Jitter: 1.0")
	case "Client.Backoff": // retryablehttp: Backoff: DefaultBackoff -> LinearJitterBackoff
		if v, q, ok := c.storedValue(set.Pos); ok {
			edits = replace(v, q+".LinearJitterBackoff")
		}
	}
	if len(edits) == 0 {
		return analysis.SuggestedFix{}, false
	}
	return analysis.SuggestedFix{Message: "Turn on jitter", TextEdits: edits}, true
}

func replace(n ast.Node, text string) []analysis.TextEdit {
	return []analysis.TextEdit{{Pos: n.Pos(), End: n.End(), NewText: []byte(text)}}
}

// optionCall returns the call of a library function at lparen and the name its package has in
// the file (the qualifier of pkg.Func(...)).
func (c *checker) optionCall(lparen token.Pos) (*ast.CallExpr, string, bool) {
	cur, ok := c.calls.At(lparen)
	if !ok {
		return nil, "", false
	}
	call := cur.Node().(*ast.CallExpr)
	q, ok := qualifier(c.pass, call.Fun)
	return call, q, ok
}

// qualifier returns the package name that e, pkg.Name, is qualified with.
func qualifier(pass *analysis.Pass, e ast.Expr) (string, bool) {
	if ix, ok := e.(*ast.IndexExpr); ok { // a generic function instantiated explicitly
		e = ix.X
	}
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return "", false
	}
	if _, isPkg := pass.TypesInfo.Uses[id].(*types.PkgName); !isPkg {
		return "", false
	}
	return id.Name, true
}

// storedValue returns the expression stored into a field at pos (a composite literal's
// key: value, or an assignment to the field), and the qualifier of the literal's type or of
// the value itself.
func (c *checker) storedValue(pos token.Pos) (ast.Expr, string, bool) {
	for cur := range c.insp.Root().Preorder((*ast.KeyValueExpr)(nil), (*ast.AssignStmt)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.KeyValueExpr:
			if n.Colon != pos {
				continue
			}
			if lit, ok := cur.Parent().Node().(*ast.CompositeLit); ok {
				if q, ok := qualifier(c.pass, lit.Type); ok {
					return n.Value, q, true
				}
			}
			q, _ := qualifier(c.pass, n.Value)
			return n.Value, q, true
		case *ast.AssignStmt:
			if n.TokPos != pos || len(n.Rhs) != 1 {
				continue
			}
			q, ok := qualifier(c.pass, n.Rhs[0])
			if !ok {
				q, ok = typeQualifier(c.pass, c.insp, n.Lhs[0])
			}
			return n.Rhs[0], q, ok
		}
	}
	return nil, "", false
}

// typeQualifier returns the name by which the file refers to the package of x's struct type
// (x is a field selection such as b.RandomizationFactor).
func typeQualifier(pass *analysis.Pass, insp *inspector.Inspector, x ast.Expr) (string, bool) {
	sel, ok := x.(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	t := pass.TypesInfo.TypeOf(sel.X)
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return "", false
	}
	file := syntax.File(pass, x.Pos())
	if file == nil {
		return "", false
	}
	for _, imp := range file.Imports {
		if pn, ok := pass.TypesInfo.Implicits[imp].(*types.PkgName); ok && pn.Imported() == n.Obj().Pkg() {
			return pn.Name(), true
		}
		if imp.Name != nil {
			if pn, ok := pass.TypesInfo.Defs[imp.Name].(*types.PkgName); ok && pn.Imported() == n.Obj().Pkg() {
				return pn.Name(), true
			}
		}
	}
	return "", false
}

// addField adds a field to the composite literal whose Lbrace is at pos.
func (c *checker) addField(pos token.Pos, field string) []analysis.TextEdit {
	for cur := range c.insp.Root().Preorder((*ast.CompositeLit)(nil)) {
		lit := cur.Node().(*ast.CompositeLit)
		if lit.Lbrace != pos {
			continue
		}
		if len(lit.Elts) == 0 {
			return []analysis.TextEdit{{Pos: lit.Rbrace, End: lit.Rbrace, NewText: []byte(field)}}
		}
		if _, ok := lit.Elts[0].(*ast.KeyValueExpr); !ok {
			return nil // positional fields: leave it to the user
		}
		last := lit.Elts[len(lit.Elts)-1]
		fset := c.pass.Fset
		if fset.Position(last.End()).Line == fset.Position(lit.Rbrace).Line {
			return []analysis.TextEdit{{Pos: last.End(), End: last.End(), NewText: []byte(", " + field)}}
		}
		// One field per line: a new line before the closing brace, whose line is indented one
		// tab less than the fields.
		tabs := max(fset.Position(last.Pos()).Column-1, 1)
		return []analysis.TextEdit{{Pos: lit.Rbrace, End: lit.Rbrace, NewText: []byte("\t" + field + ",\n" + strings.Repeat("\t", tabs-1))}}
	}
	return nil
}

// imports reports whether the package imports path at a version that has the function name
// (sethvargo/go-retry has WithFullJitter since v0.4.0).
func imports(pass *analysis.Pass, path, name string) bool {
	for _, imp := range pass.Pkg.Imports() {
		if imp.Path() == path {
			return imp.Scope().Lookup(name) != nil
		}
	}
	return false
}
