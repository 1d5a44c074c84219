package depmap

import (
	"go/ast"
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/ssapkg"
	"github.com/idemlint/idemlint/analyzers/internal/testcode"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// An entry is a function where paths start: one that the program's runtime, a framework or
// another package calls.
type entry struct {
	fn   *ssa.Function
	kind string // mappage.Func.Kind
}

// entries returns the package's entry points, in source order: the package's initialiser
// (its variables' initial values and its init functions), main, HTTP handlers (declared, or
// function literals the package does not call itself: registered, converted to
// http.HandlerFunc, kept in a field), the functions a framework runs
// again (activities, message handlers, reconcilers), exported functions and methods, and the
// other functions handed out as values that the package does not itself call (calls from
// tests do not count). Tests are not entry points.
func (m *mapper) entries(funcs []*ssa.Function) []entry {
	called := make(map[*ssa.Function]bool)
	valued := make(map[*ssa.Function]bool)
	var literals []*ssa.Function // handler literals
	inTest := m.inTest
	all := slices.Clone(funcs)
	for i := 0; i < len(all) && i < 1<<16; i++ {
		fn := all[i]
		all = append(all, fn.AnonFuncs...)
		if fn.Parent() != nil && typeis.HTTPHandler(fn.Signature) {
			literals = append(literals, fn) // registered, converted, stored: it runs per request
		}
		if inTest(fn.Pos()) {
			continue // a test's calls make nothing less of an entry point
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok {
					for _, g := range m.callees(call) {
						if g != fn {
							called[g] = true
						}
					}
				}
				var ops [2]*ssa.Value
				for _, op := range instr.Operands(ops[:0]) {
					if g, ok := (*op).(*ssa.Function); ok && g.Parent() == nil {
						valued[g] = true
					}
				}
			}
		}
	}
	framework := make(map[*ssa.Function]string)
	for _, s := range m.res.Scopes {
		if s.Kind.FromFramework() && s.Fn != nil && s.Noun != "" {
			framework[s.Fn] = s.Noun
		}
	}
	var out []entry
	if init := m.pass.ResultOf[ssapkg.Analyzer].(*buildssa.SSA).Pkg.Func("init"); init != nil {
		out = append(out, entry{init, "init"}) // runs the init functions too
	}
	for _, fn := range funcs {
		if fn.Parent() != nil || fn.Synthetic != "" || inTest(fn.Pos()) || isInit(fn) {
			continue
		}
		kind := ""
		switch {
		case fn.Name() == "main" && fn.Pkg.Pkg.Name() == "main" && fn.Signature.Recv() == nil:
			kind = "main"
		case typeis.HTTPHandler(fn.Signature) && !called[fn]:
			kind = "HTTP handler"
		case framework[fn] != "":
			kind = framework[fn]
		case exported(fn):
			kind = "exported"
		case called[fn] || m.callbacks[fn]:
			continue
		case valued[fn]:
			kind = "function value"
		default:
			continue
		}
		out = append(out, entry{fn, kind})
	}
	for _, fn := range literals {
		if !inTest(fn.Pos()) && !called[fn] {
			out = append(out, entry{fn, "HTTP handler"})
		}
	}
	return out
}

// testFiles returns whether a position is in a test's file: a _test.go file, or one that imports
// a testing package (testcode.At without its costlier per-function tests, which the test helpers
// of a package of production code need, not its entry points).
func (m *mapper) testFiles() func(token.Pos) bool {
	test := make(map[*token.File]bool)
	for _, f := range m.pass.Files {
		tf := m.pass.Fset.File(f.Pos())
		if tf == nil {
			continue
		}
		test[tf] = strings.HasSuffix(tf.Name(), "_test.go") || testcode.At(m.pass, f.Package)
	}
	return func(pos token.Pos) bool { return test[m.pass.Fset.File(pos)] }
}

func isInit(fn *ssa.Function) bool {
	decl, ok := flow.Syntax(fn).(*ast.FuncDecl)
	return ok && decl.Recv == nil && decl.Name.Name == "init"
}

// exported reports whether other packages can call fn: an exported function, or an exported
// method (of an unexported type too: a constructor hands it out behind an interface).
func exported(fn *ssa.Function) bool { return token.IsExported(fn.Name()) }
