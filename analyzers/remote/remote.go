package remote

import (
	_ "embed"
	"fmt"
	"go/token"
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
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
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

const mirrorPrefix = "the context-free form of "

// setContract sets c.Contract when nothing bounds c only for want of a context (none at all,
// or context.Background or TODO) and the function c is in has none to give, by contract.
func (st *state) setContract(c *Call, method string) {
	t := c.Timeout
	if t.Status != Unbounded || t.Client != nil {
		return
	}
	if !t.NoContext && t.Context.What != "context.Background()" && t.Context.What != "context.TODO()" {
		return
	}
	c.Contract = st.contract(c.Instr.Parent(), method)
}

// contract says why fn (or the function declaring the closure fn) has no context to give a
// call of method: it is the context-free form of an API, or implements a method without one
// of an interface of another package. It returns "" when fn could have one.
func (st *state) contract(fn *ssa.Function, method string) string {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok {
		return ""
	}
	for _, p := range fn.Params {
		if typeis.Context(p.Type()) {
			return "" // it has one to give
		}
	}
	name := obj.Name()
	if apiName(name) == apiName(method) {
		return mirrorPrefix + method
	}
	if sib := st.sibling(fn); sib != "" {
		return mirrorPrefix + sib
	}
	return st.bound(fn)
}

// apiName reduces a function name to the operation it names: MustBegin, Beginx and Begin
// are one.
func apiName(name string) string {
	return strings.TrimSuffix(strings.TrimPrefix(name, "Must"), "x")
}

// bound says why fn, which takes no context, cannot be given one by its callers: it
// implements a method without a context of an interface of another package, or it is an
// unexported function called only from functions that are so bound. It returns "" otherwise.
func (st *state) bound(fn *ssa.Function) string {
	if why, ok := st.bounds[fn]; ok {
		return why
	}
	st.bounds[fn] = "" // while in progress: recursion is not a contract
	why := st.bound1(fn)
	st.bounds[fn] = why
	return why
}

func (st *state) bound1(fn *ssa.Function) string {
	obj, ok := fn.Object().(*types.Func)
	if !ok {
		return ""
	}
	for _, p := range fn.Params {
		if typeis.Context(p.Type()) {
			return ""
		}
	}
	name := obj.Name()
	sig := obj.Type().(*types.Signature)
	if sig.Recv() != nil {
		for _, iface := range st.foreignInterfaces()[name] {
			m, _, _ := types.LookupFieldOrMethod(iface.t, false, iface.obj.Pkg(), name)
			im, ok := m.(*types.Func)
			if !ok || !types.Identical(im.Type().(*types.Signature).Params(), sig.Params()) {
				continue
			}
			if types.Implements(sig.Recv().Type(), iface.t.Underlying().(*types.Interface)) {
				return "implements " + shortPkg(iface.obj.Pkg().Path()) + "." + iface.obj.Name() + "." + name
			}
		}
	}
	if obj.Exported() {
		return ""
	}
	callers, ok := st.callGraph()[fn]
	if !ok || len(callers) == 0 {
		return "" // not called, or used as a value
	}
	first := ""
	for _, caller := range callers {
		for caller.Parent() != nil {
			caller = caller.Parent()
		}
		why := st.bound(caller)
		if why == "" {
			return ""
		}
		if first == "" {
			first = "called only from " + caller.Name()
		}
	}
	return first
}

// callGraph returns the static callers of each function of the package. A function also
// used as a value has a nil entry.
func (st *state) callGraph() map[*ssa.Function][]*ssa.Function {
	if st.callers != nil {
		return st.callers
	}
	st.callers = make(map[*ssa.Function][]*ssa.Function)
	escaped := make(map[*ssa.Function]bool)
	var ops []*ssa.Value
	for _, fn := range st.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var callee *ssa.Function
				if c, ok := instr.(ssa.CallInstruction); ok && !c.Common().IsInvoke() {
					callee, _ = c.Common().Value.(*ssa.Function)
					if callee != nil && callee.Pkg == st.pkg {
						st.callers[callee] = append(st.callers[callee], fn)
					}
				}
				for _, op := range instr.Operands(ops[:0]) {
					if f, ok := (*op).(*ssa.Function); ok && f != callee {
						escaped[f] = true
					}
				}
			}
		}
	}
	for f := range escaped {
		st.callers[f] = nil
	}
	return st.callers
}

// sibling returns the name of fn's form that takes a context: a method of the same receiver
// or a function of the same package named like fn with a Context suffix ("QueryxContext").
func (st *state) sibling(fn *ssa.Function) string {
	obj, ok := fn.Object().(*types.Func)
	if !ok {
		return ""
	}
	want := obj.Name() + "Context"
	if recv := obj.Type().(*types.Signature).Recv(); recv != nil {
		if m, _, _ := types.LookupFieldOrMethod(recv.Type(), true, obj.Pkg(), want); m != nil {
			return want
		}
		return ""
	}
	if obj.Pkg() != nil && obj.Pkg().Scope().Lookup(want) != nil {
		return want
	}
	return ""
}

type namedIface struct {
	obj *types.TypeName
	t   types.Type
}

// foreignInterfaces indexes the exported interfaces declared by the packages this one
// imports, by method name.
func (st *state) foreignInterfaces() map[string][]namedIface {
	if st.ifaces != nil {
		return st.ifaces
	}
	st.ifaces = make(map[string][]namedIface)
	for _, imp := range st.pass.Pkg.Imports() {
		scope := imp.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || !tn.Exported() {
				continue
			}
			it, ok := tn.Type().Underlying().(*types.Interface)
			if !ok {
				continue
			}
			for i := 0; i < it.NumMethods(); i++ {
				m := it.Method(i).Name()
				st.ifaces[m] = append(st.ifaces[m], namedIface{obj: tn, t: tn.Type()})
			}
		}
	}
	return st.ifaces
}

// embeddedDrivers are database/sql drivers of databases that run inside the process.
var embeddedDrivers = []string{
	"github.com/mattn/go-sqlite3", "modernc.org/sqlite", "github.com/glebarez/go-sqlite",
	"github.com/glebarez/sqlite", "github.com/ncruces/go-sqlite3", "github.com/mutecomm/go-sqlcipher",
	"github.com/xeodou/go-sqlcipher", "modernc.org/ql", "github.com/cznic/ql",
	"github.com/marcboeker/go-duckdb", "github.com/duckdb/duckdb-go",
}

// embeddedSQL reports whether the package imports the driver of an embedded database (SQLite,
// ql, DuckDB): its database/sql calls do not leave the process.
func (st *state) embeddedSQL() bool {
	if st.embedded == 0 {
		st.embedded = 2
		for _, imp := range st.pass.Pkg.Imports() {
			for _, d := range embeddedDrivers {
				if imp.Path() == d || strings.HasPrefix(imp.Path(), d+"/") {
					st.embedded = 1
				}
			}
		}
	}
	return st.embedded == 1
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

// index records the struct fields and package variables whose own fields the package assigns
// or passes on, so that a Timeout may be set through them.
func (st *state) index(funcs []*ssa.Function) {
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch instr := instr.(type) {
				case *ssa.Store:
					switch addr := instr.Addr.(type) {
					case *ssa.FieldAddr:
						switch base := addr.X.(type) {
						case *ssa.FieldAddr:
							if fv := flow.FieldVar(base); fv != nil {
								st.fieldTouched[fv] = true
							}
						case *ssa.Global:
							st.globalTouched[base] = true
						}
					case *ssa.Global:
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
	fv := flow.FieldVar(fa)
	if fv == nil {
		return
	}
	for _, t := range objTypes {
		if !typeis.Named(fa.X.Type(), t.pkg, t.name) || !slices.Contains(t.fields, fv.Name()) && fv.Name() != t.subField {
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
		case *ssa.UnOp:
			if !st.touch(base.X) {
				st.untraced[t] = true
			}
		default:
			if !st.touch(base) {
				st.untraced[t] = true
			}
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
		st.touch(load.X)
	}
}

// touch notes that the struct field or package variable at addr may be given a timeout
// elsewhere; it reports false when addr is neither.
func (st *state) touch(addr ssa.Value) bool {
	switch x := addr.(type) {
	case *ssa.FieldAddr:
		st.fieldTouched[flow.FieldVar(x)] = true
	case *ssa.Global:
		st.globalTouched[x] = true
		if isDefaultClient(x) {
			st.defaultTouched = true
		}
	default:
		return false
	}
	return true
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
