package depmap

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/docs"
	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/guard"
	"github.com/idemlint/idemlint/analyzers/internal/ssapkg"
	"github.com/idemlint/idemlint/analyzers/internal/testcode"
	"github.com/idemlint/idemlint/analyzers/keys"
	"github.com/idemlint/idemlint/analyzers/remote"
	"github.com/idemlint/idemlint/analyzers/retryscope"
	"github.com/idemlint/idemlint/internal/mappage"
)

//go:embed doc.go
var doc string

var Analyzer = &analysis.Analyzer{
	Name:      "depmap",
	Doc:       docs.MustExtract(doc, "depmap"),
	URL:       docs.URL("depmap"),
	Requires:  []*analysis.Analyzer{retryscope.Analyzer, remote.Analyzer, keys.Analyzer, ssapkg.Analyzer},
	FactTypes: []analysis.Fact{new(pathsFact)},
	Run:       guard.Run("depmap", run),
}

var reportPaths bool

func init() {
	Analyzer.Flags.BoolVar(&reportPaths, "report", false, "report each entry point's paths to remote calls, as JSON (what idemlint map reads)")
}

// Prefix starts the message of every diagnostic -depmap.report makes; JSON follows it.
const Prefix = "depmap "

// maxPaths bounds the paths kept for one function (those with the most layers), so that facts
// stay small when many functions fan in.
const maxPaths = 24

// pathsFact marks a function that reaches remote calls, with the paths from it to each.
type pathsFact struct {
	Paths []reach
}

func (*pathsFact) AFact() {}

func (f *pathsFact) String() string {
	var deps []string
	for _, p := range f.Paths {
		if !slices.Contains(deps, p.Dep) {
			deps = append(deps, p.Dep)
		}
	}
	return fmt.Sprintf("reaches %s", strings.Join(deps, ", "))
}

// A reach is one path from a function to a remote call.
type reach struct {
	Dep, Kind string
	Path      mappage.Path // Entry and Worst are filled in where the path is reported
	// Counts are the layers' attempts as counts of calls (Scope.CallCount), outermost first.
	Counts []count
	// Limit is the call's timeout when a constant gives it (remote.Timeout.Limit).
	Limit time.Duration
}

// A count is a layer's retryscope.Bound, in a form that survives gob, and its longest wait
// between attempts (Scope.LongestWait), when known.
type count struct {
	Kind      retryscope.BoundKind
	N         int
	Wait      time.Duration
	WaitKnown bool
}

// countOf is a layer's count.
func countOf(s *retryscope.Scope) count {
	b := s.CallCount()
	w, ok := s.LongestWait()
	return count{Kind: b.Kind, N: b.N, Wait: w, WaitKnown: ok}
}

func (c count) bound() retryscope.Bound { return retryscope.Bound{Kind: c.Kind, N: c.N} }

// under returns r reached from fn (when named), through a call inside layers (outermost
// first).
func (r reach) under(fn mappage.Func, layers []mappage.Layer, counts []count) reach {
	out := r
	if fn.Name != "" {
		out.Path.Steps = append([]mappage.Func{fn}, r.Path.Steps...)
	}
	out.Path.Layers = append(slices.Clip(layers), r.Path.Layers...)
	out.Counts = append(slices.Clip(counts), r.Counts...)
	return out
}

// key identifies a path for deduplication: the dependency, the call and the layers.
func (r reach) key() string {
	var b strings.Builder
	b.WriteString(r.Dep + "|" + r.Path.Call.Posn)
	for _, l := range r.Path.Layers {
		b.WriteString("|" + l.Posn)
	}
	return b.String()
}

type mapper struct {
	pass    *analysis.Pass
	prog    *ssa.Program
	res     *retryscope.Result
	rem     *remote.Result
	keyer   *keys.Keyer
	clients map[ssa.CallInstruction]*retryscope.Scope // self-retrying client scopes by call
	memo    map[*ssa.Function][]reach
	busy    map[*ssa.Function]bool
}

func run(pass *analysis.Pass) (any, error) {
	funcs := pass.ResultOf[ssapkg.Analyzer].(*buildssa.SSA).SrcFuncs
	if len(funcs) == 0 {
		return nil, nil
	}
	m := &mapper{
		pass:    pass,
		prog:    funcs[0].Prog,
		res:     pass.ResultOf[retryscope.Analyzer].(*retryscope.Result),
		rem:     pass.ResultOf[remote.Analyzer].(*remote.Result),
		keyer:   pass.ResultOf[keys.Analyzer].(*keys.Result).NewKeyer(),
		clients: make(map[ssa.CallInstruction]*retryscope.Scope),
		memo:    make(map[*ssa.Function][]reach),
		busy:    make(map[*ssa.Function]bool),
	}
	for _, s := range m.res.Scopes {
		if s.Kind == retryscope.Client && s.Site != nil {
			m.clients[s.Site] = s
		}
	}
	for _, fn := range funcs {
		if fn.Parent() != nil {
			continue
		}
		paths := m.reaches(fn)
		// Other packages call only exported functions and methods (paths stop at interfaces).
		if obj := fn.Object(); obj != nil && obj.Exported() && obj.Pkg() == pass.Pkg && len(paths) > 0 {
			pass.ExportObjectFact(obj, &pathsFact{Paths: paths})
		}
	}
	if reportPaths && !testcode.Package(pass) {
		m.report(funcs)
	}
	return nil, nil
}

// reaches returns the paths from fn (and the closures it makes) to remote calls.
func (m *mapper) reaches(fn *ssa.Function) []reach {
	if r, ok := m.memo[fn]; ok {
		return r
	}
	if m.busy[fn] {
		return nil // a recursion: its paths are found on the way in
	}
	m.busy[fn] = true
	defer delete(m.busy, fn)
	var out []reach
	seen := make(map[string]bool)
	for _, f := range withClosures(fn) {
		for call := range flow.Calls(f) {
			for _, r := range m.at(call) {
				self := m.step(fn)
				self.Call = m.posn(call.Pos())
				r = r.under(self, nil, nil)
				if k := r.key(); !seen[k] {
					seen[k] = true
					out = append(out, r)
				}
			}
		}
	}
	if len(out) > maxPaths {
		slices.SortStableFunc(out, func(a, b reach) int { return len(b.Path.Layers) - len(a.Path.Layers) })
		out = out[:maxPaths]
	}
	m.memo[fn] = out
	return out
}

// withClosures returns fn and the function literals inside it, at any depth.
func withClosures(fn *ssa.Function) []*ssa.Function {
	out := []*ssa.Function{fn}
	for i := 0; i < len(out) && i < 1024; i++ {
		out = append(out, out[i].AnonFuncs...)
	}
	return out
}

// at returns the paths that start at call: the remote call it makes, or the paths of the
// functions it calls (statically, or as a function it hands to the callee: a retry helper's
// callback), each under the retry layers around call that retry its failure.
func (m *mapper) at(call ssa.CallInstruction) []reach {
	layers, counts := m.layersAt(call)
	if rc := m.rem.Of(call); rc != nil && rc.Via == nil {
		r := m.remoteCall(call, rc)
		if s := m.clients[call]; s != nil && m.counts(s) {
			r.Path.Layers = append(r.Path.Layers, m.layer(s))
			r.Counts = append(r.Counts, countOf(s))
		}
		r.Path.Layers = append(slices.Clip(layers), r.Path.Layers...)
		r.Counts = append(slices.Clip(counts), r.Counts...)
		return []reach{r}
	}
	var out []reach
	for _, callee := range m.callees(call) {
		var inner []reach
		switch {
		case callee.Pkg != nil && callee.Pkg.Pkg == m.pass.Pkg:
			inner = m.reaches(callee)
		case callee.Object() != nil:
			var f pathsFact
			if m.pass.ImportObjectFact(callee.Object(), &f) {
				inner = f.Paths
			}
		}
		for _, r := range inner {
			out = append(out, r.under(mappage.Func{}, layers, counts))
		}
	}
	return out
}

// callees returns the functions call runs: its static callee, the methods of the package's
// types that implement the package's interface it calls, and the package's functions handed
// to it as arguments (a retry helper's callback, a handler being registered is not
// run here but is handed on, and counts as reached through this call).
func (m *mapper) callees(call ssa.CallInstruction) []*ssa.Function {
	var out []*ssa.Function
	if fn := call.Common().StaticCallee(); fn != nil {
		if o := fn.Origin(); o != nil {
			fn = o // a generic function's instance: the paths are the generic body's
		}
		out = append(out, fn)
	}
	out = append(out, m.implementations(call.Common())...)
	for _, a := range call.Common().Args {
		var fn *ssa.Function
		switch a := a.(type) {
		case *ssa.Function:
			fn = a
		case *ssa.MakeClosure:
			fn, _ = a.Fn.(*ssa.Function)
		}
		if fn != nil && fn.Parent() == nil && fn.Pkg != nil && fn.Pkg.Pkg == m.pass.Pkg {
			out = append(out, fn)
		}
	}
	return out
}

// implementations returns, for a call of a method of an interface this package declares, the
// methods of the package's own types that implement it: a package that hides its strategies
// behind an interface of its own (a sender chosen at construction) runs one of them there.
// Interfaces of other packages (io.Writer, an SDK's API) are not followed: their
// implementations are anyone's.
func (m *mapper) implementations(cc *ssa.CallCommon) []*ssa.Function {
	if !cc.IsInvoke() {
		return nil
	}
	named, ok := types.Unalias(cc.Value.Type()).(*types.Named)
	if !ok || named.Obj().Pkg() != m.pass.Pkg {
		return nil
	}
	iface, ok := named.Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	var out []*ssa.Function
	scope := m.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		if n, ok := tn.Type().(*types.Named); !ok || n.TypeParams().Len() > 0 || types.IsInterface(n) {
			continue
		}
		for _, t := range []types.Type{tn.Type(), types.NewPointer(tn.Type())} {
			if types.Implements(t, iface) {
				if fn := m.prog.LookupMethod(t, cc.Method.Pkg(), cc.Method.Name()); fn != nil {
					if obj, ok := fn.Object().(*types.Func); ok && fn.Synthetic != "" {
						fn = m.prog.FuncValue(obj) // a value method through a pointer: the method itself
					}
					if fn != nil {
						out = append(out, fn)
					}
				}
				break
			}
		}
	}
	return out
}

// layersAt returns the retry layers around call that retry its failure, outermost first, as
// nestedretry counts them: not polls, not local retries, not a scope of a single attempt.
func (m *mapper) layersAt(call ssa.CallInstruction) ([]mappage.Layer, []count) {
	var layers []mappage.Layer
	var counts []count
	for _, s := range m.res.Enclosing(call) { // innermost first
		if !m.counts(s) || s.Kind == retryscope.Client || !s.Kind.FromFramework() && !s.RetriesFailureOf(call) {
			continue
		}
		layers = append([]mappage.Layer{m.layer(s)}, layers...)
		counts = append([]count{countOf(s)}, counts...)
	}
	return layers, counts
}

// counts reports whether a scope is a layer of retries of remote calls.
func (m *mapper) counts(s *retryscope.Scope) bool {
	switch {
	case s.Polls(), s.Reach == remote.ReachLocal:
		return false
	case s.Attempts.Kind == retryscope.BoundConst && s.Attempts.N <= 1:
		return false
	}
	return true
}

func (m *mapper) layer(s *retryscope.Scope) mappage.Layer {
	name := s.Describe(m.pass.Pkg)
	if fn := s.Func; fn != nil && fn.Pkg() != nil && fn.Pkg() != m.pass.Pkg && fn.Signature().Recv() != nil && (s.Kind == retryscope.Callback || s.Kind == retryscope.Client) {
		name = fn.Pkg().Name() + "." + name // another package's method: retryablehttp.Client.Do
	}
	l := mappage.Layer{
		Kind:      family(s),
		Scope:     s.Kind.String(),
		Name:      name,
		Posn:      m.posn(s.Pos()),
		Attempts:  s.Attempts.String(),
		Wait:      s.Wait.Kind.String(),
		Deadline:  s.Deadline.String(),
		Framework: s.Framework,
	}
	if s.Attempts.Kind == retryscope.BoundConst {
		l.N = s.Attempts.N
	}
	return l
}

// family is the kind of layer a scope is, as the map groups them.
func family(s *retryscope.Scope) string {
	switch {
	case s.Kind.HandWritten():
		return "hand loop"
	case s.Kind.FromFramework():
		return "framework redelivery"
	case s.Kind == retryscope.Client:
		return "self-retrying client"
	case s.Inferred:
		return "retry helper"
	}
	return "library"
}

// remoteCall is the path of length zero from a remote call to itself.
func (m *mapper) remoteCall(call ssa.CallInstruction, rc *remote.Call) reach {
	name, kind := m.dependency(call, rc)
	r := reach{Dep: name, Kind: kind}
	r.Path.Call = mappage.Site{Name: rc.Name, Posn: m.posn(call.Pos())}
	r.Path.Method = rc.Method
	if s := m.rem.SendOf(call); s != nil && s.Method != "" {
		r.Path.Method = s.Method
	}
	if r.Path.Method == "POST" || r.Path.Method == "PATCH" {
		r.Path.Key = "none"
		if m.keyer.Keyed(call) {
			r.Path.Key = "sent"
		}
	}
	r.Path.Worst.Timeout = timeout(rc.Timeout)
	r.Limit = rc.Timeout.Limit
	return r
}

// timeout says what bounds one attempt of a remote call.
func timeout(t remote.Timeout) string {
	switch {
	case t.Status == remote.Bounded && t.By != "":
		return t.By
	case t.Status == remote.Bounded:
		return "bounded"
	case t.Status == remote.Unbounded:
		return "none"
	case t.Param >= 0:
		return "caller's context"
	}
	return "unknown"
}

// step is how a path names a function.
func (m *mapper) step(fn *ssa.Function) mappage.Func {
	return mappage.Func{Name: funcName(fn), Posn: m.posn(fn.Pos())}
}

// funcName names a function with its package's name: "shop.Checkout", "shop.(*Client).charge";
// a closure by the function it is in.
func funcName(fn *ssa.Function) string {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	if fn.Pkg == nil {
		return fn.Name()
	}
	return fn.Pkg.Pkg.Name() + "." + fn.RelString(fn.Pkg.Pkg)
}

func (m *mapper) posn(pos token.Pos) string {
	if !pos.IsValid() {
		return ""
	}
	return m.pass.Fset.Position(pos).String()
}

// worst is a path's worst case: the product of its layers' counts, and its call's timeout.
func worst(r reach) mappage.Worst {
	bs := make([]retryscope.Bound, len(r.Counts))
	for i, c := range r.Counts {
		bs[i] = c.bound()
	}
	p := retryscope.Product(bs...)
	w := mappage.Worst{Timeout: r.Path.Worst.Timeout, Time: longest(r)}
	switch p.Kind {
	case retryscope.BoundConst:
		w.Calls, w.N = strconv.Itoa(p.N), p.N
	case retryscope.BoundNone:
		w.Calls = "unbounded"
	default:
		w.Calls = "unknown"
	}
	return w
}

// longest is the longest one request can wait on a path (see mappage.Worst.Time): from the
// call outwards, each layer of N attempts takes N times what it repeats and N-1 waits.
func longest(r reach) string {
	if r.Path.Worst.Timeout == "none" {
		return "unbounded" // a stalled peer blocks the attempt for ever
	}
	t, known := r.Limit, r.Limit > 0
	for i := len(r.Counts) - 1; i >= 0; i-- {
		c := r.Counts[i]
		switch {
		case c.Kind == retryscope.BoundNone:
			return "unbounded"
		case c.Kind != retryscope.BoundConst || !c.WaitKnown:
			known = false
		default:
			t = time.Duration(c.N)*t + time.Duration(c.N-1)*c.Wait
		}
	}
	switch {
	case known:
		return t.String()
	case r.Path.Worst.Timeout == "caller's context":
		return "caller's deadline"
	}
	return "unknown"
}

// report reports, at each entry point of the package, its paths as JSON.
func (m *mapper) report(funcs []*ssa.Function) {
	for _, e := range m.entries(funcs) {
		paths := m.reaches(e.fn)
		if len(paths) == 0 {
			continue
		}
		entry := m.step(e.fn)
		entry.Kind = e.kind
		var out []mappage.Reached
		for _, r := range paths {
			p := r.Path
			p.Entry = entry
			p.Worst = worst(r)
			out = append(out, mappage.Reached{Dep: r.Dep, Kind: r.Kind, Path: p})
		}
		data, err := json.Marshal(out)
		if err != nil {
			continue
		}
		m.pass.Report(analysis.Diagnostic{Pos: e.fn.Pos(), Category: "depmap", Message: Prefix + string(data)})
	}
}
