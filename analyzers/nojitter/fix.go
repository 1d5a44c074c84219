package nojitter

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/analyzers/internal/edit"
	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/syntax"
	"github.com/idemlint/idemlint/analyzers/retryscope"
)

// wrapSleep wraps the duration of a standard wait (time.Sleep, time.After, time.NewTimer, a
// timer's Reset) in full jitter: the runtime's where the module has it, math/rand's otherwise;
// no fix where the duration is on some failures the server's word.
func (c *checker) wrapSleep(sl retryscope.Sleep) (analysis.SuggestedFix, bool) {
	if sl.Duration == nil || sl.Told() {
		return analysis.SuggestedFix{}, false // (jittering a server's Retry-After would shorten it)
	}
	if args := sl.Call.Common().Args; len(args) == 0 || flow.Unwrap(args[len(args)-1]) != flow.Unwrap(sl.Duration) {
		return analysis.SuggestedFix{}, false // a length chosen elsewhere (wait = time.Second on failure)
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
	if file == nil {
		return analysis.SuggestedFix{}, false
	}
	w := edit.NewWriter(c.pass, file)
	text, edits, ok := w.Jitter(call.Args[0])
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	edits = append(edits, analysis.TextEdit{Pos: call.Args[0].Pos(), End: call.Args[0].End(), NewText: []byte(text)})
	return analysis.SuggestedFix{Message: "Add full jitter to the wait", TextEdits: edits}, true
}

// libraryFix turns jitter on where one option, constructor or field of a library turned it
// off or left it off, as the library's table says (knowledge.JitterFix).
func (c *checker) libraryFix(set *retryscope.Setting) (analysis.SuggestedFix, bool) {
	if set == nil || set.Jitter == nil || !set.Pos.IsValid() {
		return analysis.SuggestedFix{}, false
	}
	fix := set.Jitter
	var edits []analysis.TextEdit
	switch fix.Kind {
	case knowledge.FixArg: // DelayType(d) -> DelayType(CombineDelay(d, RandomDelay))
		call, q, ok := c.optionCall(set.Pos)
		if !ok || len(call.Args) != 1 {
			break
		}
		if text, ok := c.code(fix, q, call.Args[0]); ok {
			edits = replace(call.Args[0], text)
		}
	case knowledge.FixValue: // RandomizationFactor: 0 -> DefaultRandomizationFactor
		v, q, pkg, imps, ok := c.storedValue(set.Pos)
		if !ok || fix.LibraryValue && !c.libraryFunc(v, pkg) {
			break
		}
		if !strings.Contains(fix.Text, "{pkg}") {
			imps = nil // a constant (Jitter: 1.0) needs no import
		}
		if text, ok := c.code(fix, q, v); ok {
			edits = append(imps, replace(v, text)...)
		}
	case knowledge.FixField: // wait.Backoff{...} -> wait.Backoff{..., Jitter: 1.0}
		edits = c.addField(set.Pos, fix.Text)
	case knowledge.FixWrap: // NewConstant(d) -> WithFullJitter(NewConstant(d))
		call, q, ok := c.optionCall(set.Pos)
		if !ok || fix.Needs != "" && !imports(c.pass, calleePkg(c.pass, call), fix.Needs) {
			break
		}
		if text, ok := c.code(fix, q, call); ok {
			edits = replace(call, text)
		}
	case knowledge.FixAfter: // WithStrategy(Constant(d)) -> WithStrategy(Constant(d)), WithJitter()
		cur, ok := c.calls.At(set.Pos)
		if !ok {
			break
		}
		opt, ok := cur.Parent().Node().(*ast.CallExpr)
		pkg := calleePkg(c.pass, cur.Node().(*ast.CallExpr))
		if !ok || pkg == "" || !isFunc(c.pass, opt, pkg, fix.In) {
			break
		}
		if q, ok := qualifier(c.pass, opt.Fun); ok {
			edits = []analysis.TextEdit{{Pos: opt.End(), End: opt.End(), NewText: []byte(", " + fix.Code(q, ""))}}
		}
	}
	if len(edits) == 0 {
		return analysis.SuggestedFix{}, false
	}
	return analysis.SuggestedFix{Message: "Turn on jitter", TextEdits: edits}, true
}

// code returns the text fix writes for the package qualifier q, in place of the setting's
// own code value.
func (c *checker) code(fix *knowledge.JitterFix, q string, value ast.Expr) (string, bool) {
	text := ""
	if strings.Contains(fix.Text, "{value}") {
		var ok bool
		if text, ok = edit.Source(c.pass, value); !ok {
			return "", false
		}
	}
	return fix.Code(q, text), true
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
// key: value, or an assignment to the field), the name by which the file refers, where that
// expression stands, to the package of the struct type (importing it when it must), and that
// package's path.
func (c *checker) storedValue(pos token.Pos) (ast.Expr, string, string, []analysis.TextEdit, bool) {
	for cur := range c.insp.Root().Preorder((*ast.KeyValueExpr)(nil), (*ast.AssignStmt)(nil)) {
		var value, structExpr ast.Expr
		switch n := cur.Node().(type) {
		case *ast.KeyValueExpr:
			if n.Colon != pos {
				continue
			}
			lit, ok := cur.Parent().Node().(*ast.CompositeLit)
			if !ok {
				return nil, "", "", nil, false
			}
			value, structExpr = n.Value, lit
		case *ast.AssignStmt:
			if n.TokPos != pos || len(n.Rhs) != 1 || len(n.Lhs) != 1 {
				continue
			}
			sel, ok := ast.Unparen(n.Lhs[0]).(*ast.SelectorExpr)
			if !ok {
				return nil, "", "", nil, false
			}
			value, structExpr = n.Rhs[0], sel.X
		default:
			continue
		}
		t := c.pass.TypesInfo.TypeOf(structExpr)
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		named, ok := types.Unalias(t).(*types.Named)
		file := syntax.File(c.pass, value.Pos())
		if !ok || named.Obj().Pkg() == nil || file == nil {
			return nil, "", "", nil, false
		}
		path := named.Obj().Pkg().Path()
		name, edits := edit.Import(c.pass.TypesInfo, c.pass.Pkg, file, path, nil, value.Pos())
		return value, name, path, edits, true
	}
	return nil, "", "", nil, false
}

// addField adds a field to the composite literal whose Lbrace is at pos.
func (c *checker) addField(pos token.Pos, field string) []analysis.TextEdit {
	for cur := range c.insp.Root().Preorder((*ast.CompositeLit)(nil)) {
		lit := cur.Node().(*ast.CompositeLit)
		if lit.Lbrace != pos {
			continue
		}
		src, _ := c.pass.ReadFile(c.pass.Fset.File(pos).Name())
		if e, ok := edit.AddField(c.pass.Fset, src, lit, field); ok {
			return []analysis.TextEdit{e}
		}
		return nil
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

// isFunc reports whether call calls the function pkg.name.
func isFunc(pass *analysis.Pass, call *ast.CallExpr, pkg, name string) bool {
	fn := typeutil.StaticCallee(pass.TypesInfo, call)
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == pkg && fn.Name() == name
}

// calleePkg returns the path of the package of the function call calls, or "".
func calleePkg(pass *analysis.Pass, call *ast.CallExpr) string {
	if fn := typeutil.StaticCallee(pass.TypesInfo, call); fn != nil && fn.Pkg() != nil {
		return fn.Pkg().Path()
	}
	return ""
}

// libraryFunc reports whether the expression v names a function of the package path.
func (c *checker) libraryFunc(v ast.Expr, path string) bool {
	var id *ast.Ident
	switch x := ast.Unparen(v).(type) {
	case *ast.Ident:
		id = x
	case *ast.SelectorExpr:
		id = x.Sel
	}
	if id == nil {
		return false
	}
	fn, ok := c.pass.TypesInfo.Uses[id].(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == path
}
