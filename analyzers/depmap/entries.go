package depmap

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/testcode"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// An entry is a function where paths start: one that the program's runtime, a framework or
// another package calls, and that no function of this package calls.
type entry struct {
	fn   *ssa.Function
	kind string // mappage.Func.Kind
}

// entries returns the package's entry points, in source order: main, init functions, HTTP
// handlers, the functions a framework runs again (activities, message handlers,
// reconcilers), exported functions and methods, and functions handed out
// as values; those the package itself calls (or hands to a call it makes) are reached from
// their callers instead.
func (m *mapper) entries(funcs []*ssa.Function) []entry {
	called := make(map[*ssa.Function]bool)
	valued := make(map[*ssa.Function]bool)
	for _, fn := range funcs {
		if fn.Parent() != nil {
			continue
		}
		for _, f := range withClosures(fn) {
			for _, b := range f.Blocks {
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
	}
	framework := make(map[*ssa.Function]string)
	for _, s := range m.res.Scopes {
		if s.Kind.FromFramework() && s.Fn != nil && s.Noun != "" {
			framework[s.Fn] = s.Noun
		}
	}
	var out []entry
	for _, fn := range funcs {
		if fn.Parent() != nil || fn.Synthetic != "" || testcode.At(m.pass, fn.Pos()) {
			continue // tests are not entry points of the program
		}
		kind := ""
		switch {
		case fn.Name() == "main" && fn.Pkg.Pkg.Name() == "main" && fn.Signature.Recv() == nil:
			kind = "main"
		case isInit(fn):
			kind = "init"
		case handler(fn.Signature):
			kind = "HTTP handler"
		case framework[fn] != "":
			kind = framework[fn]
		case called[fn]:
			continue
		case exported(fn):
			kind = "exported"
		case valued[fn]:
			kind = "function value"
		default:
			continue
		}
		if called[fn] && (kind == "HTTP handler" || kind == "init") {
			continue // a handler the package wraps or calls; init is never called
		}
		out = append(out, entry{fn, kind})
	}
	return out
}

func isInit(fn *ssa.Function) bool {
	decl, ok := flow.Syntax(fn).(*ast.FuncDecl)
	return ok && decl.Recv == nil && decl.Name.Name == "init"
}

// handler reports whether sig is an HTTP handler's: (http.ResponseWriter, *http.Request),
// with or without a receiver.
func handler(sig *types.Signature) bool {
	p := sig.Params()
	if p.Len() != 2 {
		return false
	}
	_, ptr := p.At(1).Type().(*types.Pointer)
	return typeis.Named(p.At(0).Type(), "net/http", "ResponseWriter") && ptr && typeis.Named(p.At(1).Type(), "net/http", "Request")
}

// exported reports whether other packages can call fn: an exported function, or an exported
// method (of an unexported type too: a constructor hands it out behind an interface).
func exported(fn *ssa.Function) bool { return token.IsExported(fn.Name()) }
