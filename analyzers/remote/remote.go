package remote

import (
	_ "embed"
	"fmt"
	"go/types"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/docs"
	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/ssapkg"
)

//go:embed doc.go
var doc string

// Analyzer finds the calls of a package that leave the process and says what bounds each.
// It reports nothing unless -remote.report is set.
var Analyzer = &analysis.Analyzer{
	Name:       "remote",
	Doc:        docs.MustExtract(doc, "remote"),
	URL:        docs.URL("remote"),
	Requires:   []*analysis.Analyzer{ssapkg.Analyzer},
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{new(ParamFact)},
	Run:        run,
}

var reportCalls bool

func init() {
	Analyzer.Flags.BoolVar(&reportCalls, "report", false, "report every remote call found and what bounds it (for debugging the model)")
}

// Result holds the remote calls of a package, in source order.
type Result struct {
	Calls   []*Call
	byInstr map[ssa.CallInstruction]*Call
}

// Of returns the remote call made by instr, or nil when instr is not one.
func (r *Result) Of(instr ssa.Instruction) *Call {
	c, ok := instr.(ssa.CallInstruction)
	if !ok || r == nil {
		return nil
	}
	return r.byInstr[c]
}

// ParamFact marks a function that passes the context of some of its parameters (a
// context.Context, or an *http.Request's context) to a remote call that nothing else bounds:
// its callers decide whether that call can hang, so the model treats a call of the function as
// a remote call too.
type ParamFact struct {
	Params []Passed
}

// Passed is one parameter a function passes to a remote call, or (Index -1) a remote call
// it makes without any context because it is the context-free form of an API.
type Passed struct {
	Index   int  // among the function's SSA parameters: the receiver first, for methods; -1: none
	Request bool // an *http.Request whose context is used, rather than a context.Context
	Kind    Kind
	Name    string // the remote call's name
	At      string // "client.go:30"
	Instead string // for Index -1, the function's form that takes a context, if any
}

func (*ParamFact) AFact() {}

func (f *ParamFact) String() string {
	var parts []string
	for _, p := range f.Params {
		what := "the context"
		if p.Request {
			what = "the request context"
		}
		if p.Index < 0 {
			parts = append(parts, fmt.Sprintf("no context to %s at %s", p.Name, p.At))
			continue
		}
		parts = append(parts, fmt.Sprintf("%s of parameter %d to %s at %s", what, p.Index, p.Name, p.At))
	}
	return "passes " + strings.Join(parts, ", ")
}

// state is the model of one package being built.
type state struct {
	pass *analysis.Pass
	pkg  *ssa.Package

	stores         *flow.Stores               // values stored into struct fields and package variables
	fieldTouched   map[*types.Var]bool        // fields whose own fields are assigned (f.Timeout = ...)
	globalTouched  map[*ssa.Global]bool       // package variables whose fields are assigned
	untraced       map[*objType]bool          // types whose timeout is set on a value the model cannot trace
	defaultTouched bool                       // http.DefaultClient is reassigned
	summaries      map[*ssa.Function][]Passed // the package's own ParamFacts
	imported       map[*types.Func]*ParamFact // memo of imported facts (nil: none)
	funcs          []*ssa.Function
	bounds         map[*ssa.Function]string          // memo of bound
	callers        map[*ssa.Function][]*ssa.Function // static callers, built on first need
	ifaces         map[string][]namedIface           // interfaces of imported packages, by method name
	embedded       int                               // 0: not known yet; 1: an embedded database driver is imported; 2: not
}

func run(pass *analysis.Pass) (any, error) {
	res := &Result{byInstr: make(map[ssa.CallInstruction]*Call)}
	if ssapkg.IsStd(pass) || !importsRemote(pass.Pkg) {
		return res, nil // fast path: nothing here can leave the process
	}
	ssaRes := pass.ResultOf[ssapkg.Analyzer].(*buildssa.SSA)
	st := &state{
		pass:          pass,
		pkg:           ssaRes.Pkg,
		fieldTouched:  make(map[*types.Var]bool),
		globalTouched: make(map[*ssa.Global]bool),
		untraced:      make(map[*objType]bool),
		summaries:     make(map[*ssa.Function][]Passed),
		imported:      make(map[*types.Func]*ParamFact),
		bounds:        make(map[*ssa.Function]string),
	}
	funcs := ssapkg.AllFuncs(ssaRes)
	st.funcs = funcs
	st.stores = flow.IndexStores(funcs)
	st.index(funcs)

	// Calls that leave the process themselves.
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if c := st.classify(call); c != nil {
					res.Calls = append(res.Calls, c)
					res.byInstr[call] = c
				}
			}
		}
	}

	// Functions that pass a parameter's context to one of them, with nothing else bounding it.
	for _, c := range res.Calls {
		t := c.Timeout
		index, instead := t.Param, ""
		switch {
		case c.Stream:
			continue
		case t.Status == Unknown && t.Param >= 0:
		case t.Status == Unbounded && t.NoContext && strings.HasPrefix(c.Contract, mirrorPrefix):
			index, instead = -1, st.sibling(c.Instr.Parent())
		default:
			continue
		}
		fn := c.Instr.Parent()
		if _, ok := fn.Object().(*types.Func); !ok || fn.Synthetic != "" {
			continue
		}
		dup := false
		for _, p := range st.summaries[fn] {
			dup = dup || p.Index == index
		}
		if !dup {
			pos := pass.Fset.Position(c.Pos())
			st.summaries[fn] = append(st.summaries[fn], Passed{
				Index: index, Request: t.Request, Kind: c.Kind, Name: c.Name,
				At: fmt.Sprintf("%s:%d", filepath.Base(pos.Filename), pos.Line), Instead: instead,
			})
		}
	}
	for _, fn := range funcs {
		if ps := st.summaries[fn]; len(ps) > 0 {
			pass.ExportObjectFact(fn.Object(), &ParamFact{Params: ps})
		}
	}

	// Calls of such functions, here or in imported packages.
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok || res.byInstr[call] != nil {
					continue
				}
				if c := st.via(call); c != nil {
					res.Calls = append(res.Calls, c)
					res.byInstr[call] = c
				}
			}
		}
	}

	sort.SliceStable(res.Calls, func(i, j int) bool { return res.Calls[i].Pos() < res.Calls[j].Pos() })
	if reportCalls {
		for _, c := range res.Calls {
			pass.Reportf(c.Pos(), "%s", c.Summary(pass.Fset))
		}
	}
	return res, nil
}

// classify returns the remote call that call makes, or nil.
func (st *state) classify(call ssa.CallInstruction) *Call {
	common := call.Common()
	fn := flow.Callee(common)
	if fn == nil {
		return nil
	}
	id := flow.ID(fn)
	site := flow.NewSite(common, fn)
	s := &site
	w := st.walker(call.Parent())
	if r, ok := rules[id]; ok {
		v, leaves := r.eval(w, s)
		if !leaves {
			return nil
		}
		if r.kind == SQL && st.embeddedSQL() {
			return nil // an embedded database: nothing leaves the process
		}
		c := &Call{Instr: call, Kind: r.kind, Name: r.name, Method: r.method, Timeout: v.timeout()}
		if r.kind == HTTP && c.Method == "" {
			c.Method = st.walker(call.Parent()).method(s.Arg(0))
		}
		if i, ok := addrArgs[id]; ok {
			w := st.walker(call.Parent())
			if i == fromRequest {
				c.Loopback = w.loopbackRequest(s.Arg(0))
			} else {
				c.Loopback = w.loopback(s.Arg(i), nil, 0)
			}
		}
		st.setContract(c, id.Name)
		return c
	}
	if stream, ok := grpcCall(fn); ok {
		name := shortPkg(id.Pkg) + "." + id.Name
		if id.Recv != "" {
			name = id.Recv + "." + id.Name
		}
		c := &Call{Instr: call, Kind: GRPC, Name: name, Stream: stream, Timeout: w.ctx(s.Arg(0), nil).timeout()}
		st.setContract(c, id.Name)
		return c
	}
	return nil
}

// via returns the remote call that call makes through a function with a ParamFact, or nil.
func (st *state) via(call ssa.CallInstruction) *Call {
	common := call.Common()
	callee := common.StaticCallee()
	if callee == nil {
		return nil
	}
	var passed []Passed
	if ps, ok := st.summaries[callee]; ok {
		passed = ps
	} else if obj, ok := callee.Object().(*types.Func); ok && obj.Pkg() != st.pass.Pkg {
		obj = obj.Origin()
		f, seen := st.imported[obj]
		if !seen {
			f = new(ParamFact)
			if !st.pass.ImportObjectFact(obj, f) {
				f = nil
			}
			st.imported[obj] = f
		}
		if f != nil {
			passed = f.Params
		}
	}
	var best *Call
	for _, p := range passed {
		if p.Index >= len(common.Args) {
			continue
		}
		w := st.walker(call.Parent())
		var v verdict
		switch {
		case p.Index < 0:
			v = noContext()
		case p.Request:
			v = w.req(common.Args[p.Index], nil)
		default:
			v = w.ctx(common.Args[p.Index], nil)
		}
		c := &Call{Instr: call, Kind: p.Kind, Name: p.Name, Via: callee.Name(), ViaPos: p.At, Instead: p.Instead, Timeout: v.timeout()}
		c.Timeout.Request = p.Request
		st.setContract(c, callee.Name())
		if obj, ok := callee.Object().(*types.Func); ok {
			c.Via = flow.Name(obj, obj.Pkg())
		}
		if best == nil || c.Timeout.Status == Unbounded && best.Timeout.Status != Unbounded {
			best = c
		}
	}
	return best
}

// importsRemote reports whether pkg imports, directly or not, a package whose calls leave the
// process.
func importsRemote(pkg *types.Package) bool {
	seen := make(map[*types.Package]bool)
	var visit func(p *types.Package) bool
	visit = func(p *types.Package) bool {
		if seen[p] {
			return false
		}
		seen[p] = true
		for _, imp := range p.Imports() {
			if slices.Contains(remotePkgs, imp.Path()) || visit(imp) {
				return true
			}
		}
		return false
	}
	return visit(pkg)
}
