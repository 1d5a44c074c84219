package remote

import (
	_ "embed"
	"fmt"
	"go/build"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/docs"
	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

//go:embed doc.go
var doc string

// Analyzer finds the calls of a package that leave the process and says what bounds each.
// It reports nothing unless -remote.report is set.
var Analyzer = &analysis.Analyzer{
	Name:       "remote",
	Doc:        docs.MustExtract(doc, "remote"),
	URL:        docs.URL("remote"),
	Requires:   []*analysis.Analyzer{buildssa.Analyzer},
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

// Passed is one parameter a function passes to a remote call.
type Passed struct {
	Index   int  // among the function's SSA parameters: the receiver first, for methods
	Request bool // an *http.Request whose context is used, rather than a context.Context
	Kind    Kind
	Name    string // the remote call's name
	At      string // "client.go:30"
}

func (*ParamFact) AFact() {}

func (f *ParamFact) String() string {
	var parts []string
	for _, p := range f.Params {
		what := "context"
		if p.Request {
			what = "request context"
		}
		parts = append(parts, fmt.Sprintf("%s of parameter %d to %s at %s", what, p.Index, p.Name, p.At))
	}
	return "passes the " + strings.Join(parts, ", ")
}

// state is the model of one package being built.
type state struct {
	pass *analysis.Pass
	pkg  *ssa.Package

	fieldStores    map[*types.Var][]ssa.Value  // values stored into each struct field of the package's types
	fieldTouched   map[*types.Var]bool         // fields whose own fields are assigned (f.Timeout = ...)
	globalStores   map[*ssa.Global][]ssa.Value // values stored into package variables
	globalTouched  map[*ssa.Global]bool        // package variables whose fields are assigned
	untraced       map[*objType]bool           // types whose timeout is set on a value the model cannot trace
	defaultTouched bool                        // http.DefaultClient is reassigned
	summaries      map[*ssa.Function][]Passed  // the package's own ParamFacts
	imported       map[*types.Func]*ParamFact  // memo of imported facts (nil: none)
}

func run(pass *analysis.Pass) (any, error) {
	res := &Result{byInstr: make(map[ssa.CallInstruction]*Call)}
	if standard(pass) || !importsRemote(pass.Pkg) {
		return res, nil // fast path: nothing here can leave the process
	}
	ssaRes := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA)
	st := &state{
		pass:          pass,
		pkg:           ssaRes.Pkg,
		fieldStores:   make(map[*types.Var][]ssa.Value),
		fieldTouched:  make(map[*types.Var]bool),
		globalStores:  make(map[*ssa.Global][]ssa.Value),
		globalTouched: make(map[*ssa.Global]bool),
		untraced:      make(map[*objType]bool),
		summaries:     make(map[*ssa.Function][]Passed),
		imported:      make(map[*types.Func]*ParamFact),
	}
	funcs := allFuncs(ssaRes)
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
		if t.Status != Unknown || t.Param < 0 || c.Stream {
			continue
		}
		fn := c.Instr.Parent()
		if _, ok := fn.Object().(*types.Func); !ok || fn.Synthetic != "" {
			continue
		}
		dup := false
		for _, p := range st.summaries[fn] {
			dup = dup || p.Index == t.Param
		}
		if !dup {
			pos := pass.Fset.Position(c.Pos())
			st.summaries[fn] = append(st.summaries[fn], Passed{
				Index: t.Param, Request: t.Request, Kind: c.Kind, Name: c.Name,
				At: fmt.Sprintf("%s:%d", filepath.Base(pos.Filename), pos.Line),
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
	s := newSite(common, fn)
	w := st.walker(call.Parent())
	if r, ok := rules[id]; ok {
		v, leaves := r.eval(w, s)
		if !leaves {
			return nil
		}
		c := &Call{Instr: call, Kind: r.kind, Name: r.name, Method: r.method, Timeout: v.timeout()}
		if r.kind == HTTP && c.Method == "" {
			c.Method = st.walker(call.Parent()).method(s.arg(0), nil, 0)
		}
		return c
	}
	if stream, ok := grpcCall(fn); ok {
		name := shortPkg(id.Pkg) + "." + id.Name
		if id.Recv != "" {
			name = id.Recv + "." + id.Name
		}
		return &Call{Instr: call, Kind: GRPC, Name: name, Stream: stream, Timeout: w.ctx(s.arg(0), nil).timeout()}
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
		if p.Request {
			v = w.req(common.Args[p.Index], nil)
		} else {
			v = w.ctx(common.Args[p.Index], nil)
		}
		c := &Call{Instr: call, Kind: p.Kind, Name: p.Name, Via: callee.Name(), ViaPos: p.At, Timeout: v.timeout()}
		c.Timeout.Request = p.Request
		if obj, ok := callee.Object().(*types.Func); ok {
			c.Via = funcName(obj)
		}
		if best == nil || c.Timeout.Status == Unbounded && best.Timeout.Status != Unbounded {
			best = c
		}
	}
	return best
}

// funcName names a function for messages: "fetch", "Client.Get", "api.Fetch".
func funcName(fn *types.Func) string {
	id := flow.ID(fn)
	if id.Recv != "" {
		return id.Recv + "." + id.Name
	}
	return id.Name
}

// A site is one call, with its receiver (nil for functions) and its other arguments.
type site struct {
	recv ssa.Value
	args []ssa.Value
}

func newSite(c *ssa.CallCommon, fn *types.Func) *site {
	s := &site{args: c.Args}
	if c.IsInvoke() {
		s.recv = c.Value
	} else if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil && len(c.Args) > 0 {
		s.recv, s.args = c.Args[0], c.Args[1:]
	}
	return s
}

func (s *site) arg(i int) ssa.Value {
	if i < len(s.args) {
		return s.args[i]
	}
	return nil
}

// variadic returns the variadic arguments starting at index i, or the slice itself when they
// are not known one by one.
func (s *site) variadic(i int) []ssa.Value {
	v := s.arg(i)
	if v == nil {
		return nil
	}
	if elems, ok := flow.Elems(v); ok {
		return elems
	}
	return []ssa.Value{v}
}

// index records what the package stores into struct fields and package variables.
func (st *state) index(funcs []*ssa.Function) {
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch instr := instr.(type) {
				case *ssa.Store:
					switch addr := instr.Addr.(type) {
					case *ssa.FieldAddr:
						if fv := fieldVar(addr); fv != nil {
							st.fieldStores[fv] = append(st.fieldStores[fv], instr.Val)
						}
						switch base := addr.X.(type) {
						case *ssa.FieldAddr:
							if fv := fieldVar(base); fv != nil {
								st.fieldTouched[fv] = true
							}
						case *ssa.Global:
							st.globalTouched[base] = true
						}
					case *ssa.Global:
						st.globalStores[addr] = append(st.globalStores[addr], instr.Val)
						if isDefaultClient(addr) {
							st.defaultTouched = true
						}
					}
				case *ssa.FieldAddr:
					st.checkTimeoutField(instr)
				case ssa.CallInstruction:
					st.checkPassed(instr.Common())
				}
			}
		}
	}
}

// checkTimeoutField notes where a timeout field of a client or dialer is set, or its address
// taken, on a value that is not a local allocation (which the walk reads directly): on a
// client kept in a struct field or package variable, that field or variable is touched; on a
// parameter, the client was passed to the function, which the walk notices where it is
// passed; anywhere else, the model gives up on the type for the package.
func (st *state) checkTimeoutField(fa *ssa.FieldAddr) {
	fv := fieldVar(fa)
	if fv == nil {
		return
	}
	for _, t := range objTypes {
		if !isNamed(fa.X.Type(), t.pkg, t.name) || !contains(t.fields, fv.Name()) && fv.Name() != t.subField {
			continue
		}
		written := false
		for _, r := range *fa.Referrers() {
			if load, ok := r.(*ssa.UnOp); !ok || load.X != fa {
				written = true
			}
		}
		if !written {
			continue
		}
		switch base := fa.X.(type) {
		case *ssa.Alloc, *ssa.Parameter:
		case *ssa.FieldAddr:
			st.fieldTouched[fieldVar(base)] = true
		case *ssa.Global:
			st.globalTouched[base] = true
		case *ssa.UnOp:
			switch x := base.X.(type) {
			case *ssa.FieldAddr:
				st.fieldTouched[fieldVar(x)] = true
			case *ssa.Global:
				st.globalTouched[x] = true
				if isDefaultClient(x) {
					st.defaultTouched = true
				}
			default:
				st.untraced[t] = true
			}
		default:
			st.untraced[t] = true
		}
	}
}

// checkPassed notes the struct fields and package variables whose value a call passes as an
// argument (other than as the receiver of a client's or dialer's method): the callee may set
// a timeout on it.
func (st *state) checkPassed(c *ssa.CallCommon) {
	for i, a := range c.Args {
		load, ok := a.(*ssa.UnOp)
		if !ok || load.Op != token.MUL {
			continue
		}
		if i == 0 && !c.IsInvoke() {
			if fn := c.StaticCallee(); fn != nil && fn.Signature.Recv() != nil {
				continue // a method called on it
			}
		}
		switch x := load.X.(type) {
		case *ssa.FieldAddr:
			st.fieldTouched[fieldVar(x)] = true
		case *ssa.Global:
			st.globalTouched[x] = true
			if isDefaultClient(x) {
				st.defaultTouched = true
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// allFuncs returns the package's source functions, its package initialiser (which holds the
// initialisation of package variables) and the closures inside it.
func allFuncs(s *buildssa.SSA) []*ssa.Function {
	funcs := append([]*ssa.Function(nil), s.SrcFuncs...)
	var add func(fn *ssa.Function)
	add = func(fn *ssa.Function) {
		funcs = append(funcs, fn)
		for _, anon := range fn.AnonFuncs {
			add(anon)
		}
	}
	if init := s.Pkg.Func("init"); init != nil {
		add(init)
	}
	return funcs
}

// standard reports whether the pass is over a package of the standard library, which defines
// the remote calls rather than making them.
func standard(pass *analysis.Pass) bool {
	if len(pass.Files) == 0 {
		return false
	}
	first, _, _ := strings.Cut(pass.Pkg.Path(), "/")
	if strings.Contains(first, ".") {
		return false
	}
	tf := pass.Fset.File(pass.Files[0].Pos())
	if tf == nil {
		return false
	}
	for _, root := range []string{build.Default.GOROOT, os.Getenv("GOROOT")} {
		if root != "" && strings.HasPrefix(tf.Name(), filepath.Join(root, "src")+string(filepath.Separator)) {
			return true
		}
	}
	return false
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
			if contains(remotePkgs, imp.Path()) || visit(imp) {
				return true
			}
		}
		return false
	}
	return visit(pkg)
}
