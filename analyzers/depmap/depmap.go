package depmap

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"go/token"
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
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
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
	Requires:  []*analysis.Analyzer{retryscope.Analyzer, remote.Analyzer, keys.Analyzer, ssapkg.Analyzer, ssapkg.Stores},
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
	// Counts are the layers' attempts and what each retries, outermost first.
	Counts []count
	// Limit is the call's timeout when a constant gives it (remote.Timeout.Limit).
	Limit time.Duration
	// Unnamed marks an HTTP dependency named by the package that calls it, its host unknown
	// there (a send helper's request, which the caller makes).
	Unnamed bool
}

// A count is a layer's attempts (a retryscope.Bound in a form that survives gob), their kind
// as a count of calls (Scope.CallCount), the failures it goes round on, and its longest wait
// between attempts (Scope.LongestWait), when known.
type count struct {
	Kind      retryscope.BoundKind
	N         int
	CallKind  retryscope.BoundKind
	On        retryscope.Failures
	Wait      time.Duration
	WaitKnown bool
}

// countOf is a layer's count, for a layer that goes round on the failures on.
func countOf(s *retryscope.Scope, on retryscope.Failures) count {
	w, ok := s.LongestWait()
	return count{Kind: s.Attempts.Kind, N: s.Attempts.N, CallKind: s.CallCount().Kind, On: on, Wait: w, WaitKnown: ok}
}

// bound is the layer's attempts, or, for the outermost layer, its count of calls
// (Scope.CallCount), as nestedretry counts an outer layer.
func (c count) bound(outer bool) retryscope.Bound {
	b := retryscope.Bound{Kind: c.Kind, N: c.N}
	if outer {
		b.Kind = c.CallKind
	}
	return b
}

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

// key identifies a path for deduplication: the dependency and the way to it (mappage.Way).
func (r reach) key() string { return r.Dep + "|" + mappage.Way(r.Path) }

type mapper struct {
	pass      *analysis.Pass
	prog      *ssa.Program
	res       *retryscope.Result
	rem       *remote.Result
	keyer     *keys.Keyer
	sites     map[ssa.CallInstruction][]*retryscope.Scope // client, callback and iterator scopes by the call that makes them
	memo      map[*ssa.Function][]reach
	busy      map[*ssa.Function]int  // the functions being mapped, by depth
	minCut    int                    // the smallest depth of a busy function a recursion met
	callbacks map[*ssa.Function]bool // functions that a call hands to a retry helper
	impls     *flow.Implementers     // the package's own implementations of its interfaces
	inTest    func(token.Pos) bool   // whether a position is in a test's file
	stores    *flow.Stores           // what the package stores in fields and variables
	tries     map[*ssa.Function]int  // how often a function was mapped incomplete
	calleesOf map[ssa.CallInstruction][]*ssa.Function
}

const noCut = 1 << 30

// maxMemo bounds the paths kept for one function (those with the most layers); maxTries bounds
// how often a function that a recursion left incomplete is mapped again (a small cycle is
// complete by the second time; a tangle of mutual recursion stays linear).
const (
	maxMemo  = 200
	maxTries = 3
)

func run(pass *analysis.Pass) (any, error) {
	funcs := pass.ResultOf[ssapkg.Analyzer].(*buildssa.SSA).SrcFuncs
	if len(funcs) == 0 {
		return nil, nil
	}
	m := &mapper{
		pass:      pass,
		prog:      funcs[0].Prog,
		res:       pass.ResultOf[retryscope.Analyzer].(*retryscope.Result),
		rem:       pass.ResultOf[remote.Analyzer].(*remote.Result),
		keyer:     pass.ResultOf[keys.Analyzer].(*keys.Result).NewKeyer(),
		sites:     make(map[ssa.CallInstruction][]*retryscope.Scope),
		memo:      make(map[*ssa.Function][]reach),
		busy:      make(map[*ssa.Function]int),
		minCut:    noCut,
		callbacks: make(map[*ssa.Function]bool),
		impls:     flow.NewImplementers(pass.ResultOf[ssapkg.Analyzer].(*buildssa.SSA).Pkg),
		stores:    pass.ResultOf[ssapkg.Stores].(*flow.Stores),
		tries:     make(map[*ssa.Function]int),
		calleesOf: make(map[ssa.CallInstruction][]*ssa.Function),
	}
	m.inTest = m.testFiles()
	for _, s := range m.res.Scopes {
		if madeAt(s) && !s.Handed {
			m.sites[s.Site] = append(m.sites[s.Site], s)
			if s.Fn != nil && s.Kind != retryscope.Client {
				m.callbacks[s.Fn] = true
			}
		}
	}
	for _, fn := range funcs {
		if fn.Parent() != nil {
			continue
		}
		paths := m.reaches(fn)
		// Other packages call only exported functions and methods (paths stop at interfaces).
		if obj := fn.Object(); obj != nil && obj.Exported() && obj.Pkg() == pass.Pkg && len(paths) > 0 && !m.inTest(fn.Pos()) {
			pass.ExportObjectFact(obj, &pathsFact{Paths: paths[:min(len(paths), maxPaths)]})
		}
	}
	if reportPaths && !testcode.Package(pass) {
		m.report(funcs)
	}
	return nil, nil
}

// reaches returns the paths from fn to remote calls: through the calls it makes, and the
// closures it calls or hands to a call (a retry helper's callback). A recursion is cut where it
// meets a function being mapped; the functions between are mapped again later, complete.
func (m *mapper) reaches(fn *ssa.Function) []reach {
	if r, ok := m.memo[fn]; ok {
		return r
	}
	if d, ok := m.busy[fn]; ok {
		m.minCut = min(m.minCut, d)
		return nil
	}
	depth := len(m.busy)
	m.busy[fn] = depth
	saved := m.minCut
	m.minCut = noCut
	var out []reach
	seen := make(map[string]bool)
	self := m.step(fn)
	run := make(map[*ssa.Function]bool) // the closures fn's calls run
	for call := range flow.Calls(fn) {
		for _, g := range m.callees(call) {
			run[g] = true
		}
	}
	for call := range flow.Calls(fn) {
		for _, r := range m.at(call) {
			if slices.ContainsFunc(r.Path.Steps, func(s mappage.Func) bool { return s.Posn == self.Posn && s.Name == self.Name }) {
				continue // round a recursion back to fn: fn's own paths say it
			}
			step := self
			step.Call = m.posn(call.Pos())
			r = r.under(step, nil, nil)
			if k := r.key(); !seen[k] {
				seen[k] = true
				out = append(out, r)
			}
		}
	}
	// The closures fn makes and keeps for later (stored in a field, returned: a dialer, a
	// hook): what they call is a dependency of fn's too, with none of fn's layers around it.
	for _, anon := range fn.AnonFuncs {
		if run[anon] || typeis.HTTPHandler(anon.Signature) {
			continue
		}
		for _, r := range m.reaches(anon) {
			step := self
			step.Call = m.posn(anon.Pos())
			r = r.under(step, nil, nil)
			if len(r.Path.Steps) > 1 {
				r.Path.Steps[1].Kind = "runs later"
			}
			if k := r.key(); !seen[k] {
				seen[k] = true
				out = append(out, r)
			}
		}
	}
	if len(out) > maxPaths {
		slices.SortStableFunc(out, func(a, b reach) int { return len(b.Path.Layers) - len(a.Path.Layers) })
		out = out[:min(len(out), maxMemo)]
	}
	delete(m.busy, fn)
	m.tries[fn]++
	if m.minCut >= depth || m.tries[fn] > maxTries {
		// Complete (every recursion it met came back to it or below), or mapped incomplete
		// often enough: in a tangle of mutual recursion, its paths round the tangle are cut.
		m.memo[fn] = out
		m.minCut = noCut
	}
	m.minCut = min(saved, m.minCut)
	return out
}

// at returns the paths that start at call: the remote call it makes, or the paths of the
// functions it runs, each under the retry layers around call that retry its failure, and a
// retry helper's layer around the callback it hands it.
func (m *mapper) at(call ssa.CallInstruction) []reach {
	var layers []mappage.Layer
	var counts []count
	if g, ok := call.(*ssa.Go); !ok || flow.Awaited(g) {
		layers, counts = m.layersAt(call) // a goroutine left to run is not retried with its caller
	}
	if rc := m.rem.Of(call); rc != nil && rc.Via == nil {
		r := m.remoteCall(call, rc)
		for _, s := range m.sites[call] {
			if s.Kind == retryscope.Client && s.Multiplies() {
				r.Path.Layers = append(r.Path.Layers, m.layer(s))
				r.Counts = append(r.Counts, countOf(s, s.RetrySet()))
			}
		}
		r.Path.Layers = append(slices.Clip(layers), r.Path.Layers...)
		r.Counts = append(slices.Clip(counts), r.Counts...)
		return []reach{r}
	}
	var out []reach
	for _, callee := range m.callees(call) {
		inner := m.pathsOf(callee)
		ls, cs := layers, counts
		for _, s := range m.sites[call] {
			if s.Kind != retryscope.Client && s.Fn == callee && s.Multiplies() {
				ls = append(slices.Clip(ls), m.layer(s)) // the helper's attempts around its callback
				cs = append(slices.Clip(cs), countOf(s, s.RetrySet()))
			}
		}
		for _, r := range inner {
			out = append(out, r.under(mappage.Func{}, ls, cs))
		}
	}
	// A helper of the package that sends the request it is given: the method, the key and the
	// host are the request's, made here.
	if s := m.rem.SendOf(call); s != nil && s.Inner != nil {
		inner := m.posn(s.Inner.Instr.Pos())
		for i := range out {
			p := &out[i].Path
			if p.Call.Posn != inner {
				continue
			}
			if p.Method == "" && s.Method != "" {
				p.Method, p.Key = s.Method, m.key(s.Method, call)
			}
			if s.Host != "" && out[i].Unnamed {
				out[i].Dep, out[i].Unnamed = s.Host, false
			}
		}
	}
	return out
}

// pathsOf returns the paths of a function of this package (reaches) or of another (its fact).
func (m *mapper) pathsOf(fn *ssa.Function) []reach {
	if fn.Pkg != nil && fn.Pkg.Pkg == m.pass.Pkg {
		return m.reaches(fn)
	}
	var f pathsFact
	if obj := fn.Object(); obj != nil && m.pass.ImportObjectFact(obj, &f) {
		return f.Paths
	}
	return nil
}

// layersAt returns the retry layers around call within its function that retry its failure,
// outermost first, as nestedretry counts outer layers: not polls, not local retries, not a
// scope of a single attempt; and the framework's redelivery of the function. A helper's
// callback and a client's call are layers at the call that makes them (see at).
func (m *mapper) layersAt(call ssa.CallInstruction) ([]mappage.Layer, []count) {
	var layers []mappage.Layer
	var counts []count
	for _, s := range m.res.EnclosingIn(call) { // innermost first
		if !s.Multiplies() || madeAt(s) {
			continue
		}
		on := retryscope.AnyFailure
		if !s.Kind.FromFramework() {
			if !s.RetriesFailureOf(call) {
				continue
			}
			on = s.RetriesOn(call)
		}
		layers = append([]mappage.Layer{m.layer(s)}, layers...)
		counts = append([]count{countOf(s, on)}, counts...)
	}
	return layers, counts
}

// madeAt reports whether a scope is a layer at the call that makes it: a client's retries, a
// helper's attempts around its callback, a retry iterator's around its body.
func madeAt(s *retryscope.Scope) bool {
	return s.Site != nil && (s.Kind == retryscope.Client || s.Kind == retryscope.Callback || s.Kind == retryscope.Iterator)
}

func (m *mapper) layer(s *retryscope.Scope) mappage.Layer {
	name := s.Describe(m.pass.Pkg)
	if s.Func != nil && (s.Kind == retryscope.Callback || s.Kind == retryscope.Client) {
		name = flow.QualifiedName(s.Func, m.pass.Pkg) // retryablehttp.Client.Do, as nestedretry names it
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
	name, kind, unnamed := m.dependency(call, rc)
	r := reach{Dep: name, Kind: kind, Unnamed: unnamed}
	r.Path.Call = mappage.Site{Name: rc.Name, Posn: m.posn(call.Pos())}
	r.Path.Method = rc.Method
	if s := m.rem.SendOf(call); s != nil && s.Method != "" {
		r.Path.Method = s.Method
	}
	r.Path.Key = m.key(r.Path.Method, call)
	r.Path.Worst.Timeout = timeout(rc.Timeout)
	r.Limit = rc.Timeout.Limit
	return r
}

// key says whether the request call sends carries an idempotency key, for a method that
// changes state: "sent" or "none"; "" for other methods.
func (m *mapper) key(method string, call ssa.CallInstruction) string {
	switch {
	case !remote.ChangesState(method):
		return ""
	case m.keyer.Keyed(call):
		return "sent"
	}
	return "none"
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
// a closure by the function it is in and its number there: "shop.Routes$1".
func funcName(fn *ssa.Function) string {
	top := fn
	top = flow.Root(top)
	if top.Pkg == nil {
		return fn.Name()
	}
	suffix := "" // a closure's: $1, $1$2
	if top != fn {
		suffix = strings.TrimPrefix(fn.Name(), top.Name())
	}
	return top.Pkg.Pkg.Name() + "." + top.RelString(top.Pkg.Pkg) + suffix
}

func (m *mapper) posn(pos token.Pos) string {
	if !pos.IsValid() {
		return ""
	}
	return m.pass.Fset.Position(pos).String()
}

// worst is a path's worst case: the most calls one request makes through its layers, and its
// call's timeout and longest wait.
func worst(r reach) mappage.Worst {
	w := mappage.Worst{Timeout: r.Path.Worst.Timeout, Time: longest(r)}
	switch p := calls(r.Counts); p.Kind {
	case retryscope.BoundConst:
		w.Calls, w.N = strconv.Itoa(p.N), p.N
	case retryscope.BoundNone:
		w.Calls = "unbounded"
	default:
		w.Calls = "unknown"
	}
	return w
}

// calls is the most calls one request makes through nested layers (outermost first): for each
// kind of failure, the product of the attempts of the layers that go round on it
// (retryscope.Product, the outermost of them counted as Scope.CallCount does: nestedretry's
// figure), and the worst of those. Attempts multiply only for the failures both layers retry.
func calls(cs []count) retryscope.Bound {
	out := retryscope.Bound{Kind: retryscope.BoundConst, N: 1}
	unknown := false
	for _, f := range retryscope.FailureKinds {
		var bs []retryscope.Bound
		for _, c := range cs {
			if c.On == 0 || c.On&f != 0 {
				bs = append(bs, c.bound(len(bs) == 0))
			}
		}
		switch p := retryscope.Product(bs...); p.Kind {
		case retryscope.BoundNone:
			return p
		case retryscope.BoundConst:
			out.N = max(out.N, p.N)
		default:
			unknown = true
		}
	}
	if unknown {
		return retryscope.Bound{Kind: retryscope.BoundUnknown}
	}
	return out
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
		switch b := c.bound(true); {
		case b.Kind == retryscope.BoundNone:
			return "unbounded"
		case b.Kind != retryscope.BoundConst || !c.WaitKnown:
			known = false
		default:
			t = time.Duration(b.N)*t + time.Duration(b.N-1)*c.Wait
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

// report reports the package's paths as JSON, one diagnostic for each way to a dependency (at
// its first entry point; the others that reach it the same way are under it, see
// mappage.Merge): an SDK's many methods that send through one helper make one.
func (m *mapper) report(funcs []*ssa.Function) {
	var all []mappage.Reached
	at := make(map[string]token.Pos) // entry posn -> where to report
	for _, e := range m.entries(funcs) {
		paths := m.reaches(e.fn)
		if len(paths) == 0 {
			continue
		}
		entry := m.step(e.fn)
		entry.Kind = e.kind
		pos := e.fn.Pos()
		if !pos.IsValid() && len(m.pass.Files) > 0 {
			pos = m.pass.Files[0].Package // the package's initialiser
		}
		at[entry.Posn+"|"+entry.Name] = pos
		for _, r := range paths {
			p := r.Path
			p.Entry = entry
			p.Worst = worst(r)
			all = append(all, mappage.Reached{Dep: r.Dep, Kind: r.Kind, Path: p})
		}
	}
	for _, r := range mappage.Merge(all) {
		data, err := json.Marshal([]mappage.Reached{r})
		if err != nil {
			continue
		}
		m.pass.Report(analysis.Diagnostic{Pos: at[r.Path.Entry.Posn+"|"+r.Path.Entry.Name], Category: "depmap", Message: Prefix + string(data)})
	}
}
