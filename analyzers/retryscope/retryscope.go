package retryscope

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/config"
	"github.com/idemlint/idemlint/analyzers/internal/docs"
	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/internal/ssapkg"
	"github.com/idemlint/idemlint/analyzers/internal/syntax"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

//go:embed doc.go
var doc string

// Analyzer finds the retry scopes of a package and exports what other packages need to know
// about them as facts. It reports nothing unless -retryscope.report is set.
var Analyzer = &analysis.Analyzer{
	Name:       "retryscope",
	Doc:        docs.MustExtract(doc, "retryscope"),
	URL:        docs.URL("retryscope"),
	Requires:   []*analysis.Analyzer{ssapkg.Analyzer, inspect.Analyzer},
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{new(HelperFact), new(RetriesFact), new(IteratorFact)},
	Run:        run,
}

var (
	reportScopes bool
	extraHelpers = config.List{Check: func(s string) error { _, err := parseHelper(s); return err }}
)

func init() {
	Analyzer.Flags.BoolVar(&reportScopes, "report", false, "report every retry scope found (for debugging the model)")
	Analyzer.Flags.Var(&extraHelpers, "helpers", "comma-separated extra retry helpers, as pkg/path.Func:N or pkg/path.Type.Method:N (N: index of the retried function argument)")
}

// Result holds the retry scopes of a package.
type Result struct {
	Scopes []*Scope

	loops    map[*ssa.Function][]*Scope // Loop and Goto scopes, innermost first
	whole    map[*ssa.Function][]*Scope // scopes whose every instruction of the function repeats
	creators map[*ssa.Function]ssa.Instruction
}

// Enclosing returns the scopes in which instr runs once per attempt, innermost first: loops
// around it, the callback or recursive function it is in, and the same for the functions
// that create the closure it is in.
func (r *Result) Enclosing(instr ssa.Instruction) []*Scope {
	var out []*Scope
	fn, b := instr.Parent(), instr.Block()
	for range 32 { // closures nest, but not without end
		if fn == nil {
			break
		}
		for _, s := range r.loops[fn] {
			if s.Loop.Contains(b) {
				out = append(out, s)
			}
		}
		out = append(out, r.whole[fn]...)
		creator := r.creators[fn]
		if creator == nil {
			break
		}
		fn, b = creator.Parent(), creator.Block()
	}
	return out
}

// In returns the scopes whose repeating code is the function fn itself.
func (r *Result) In(fn *ssa.Function) []*Scope { return r.whole[fn] }

type state struct {
	pass     *analysis.Pass
	res      *Result
	funcs    []*ssa.Function
	calls    map[token.Pos]inspector.Cursor // *ast.CallExpr by Lparen
	helpers  map[flow.FuncID][]helper
	clients  []client
	local    map[*types.Func]*HelperFact   // helpers inferred in this package
	iters    map[*types.Func]*IteratorFact // retry iterators made by functions of this package
	labels   map[ast.Stmt]*ast.LabeledStmt // the label of each labelled statement
	stores   *flow.Stores                  // values stored into fields and package variables
	loopInfo map[*ssa.Function][]*Scope    // hand-written scopes per function
}

func run(pass *analysis.Pass) (any, error) {
	ssaRes := pass.ResultOf[ssapkg.Analyzer].(*buildssa.SSA)
	insp := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	st := &state{
		pass: pass,
		res: &Result{
			loops:    make(map[*ssa.Function][]*Scope),
			whole:    make(map[*ssa.Function][]*Scope),
			creators: make(map[*ssa.Function]ssa.Instruction),
		},
		funcs:    ssaRes.SrcFuncs,
		calls:    make(map[token.Pos]inspector.Cursor),
		helpers:  make(map[flow.FuncID][]helper),
		clients:  clients(),
		local:    make(map[*types.Func]*HelperFact),
		iters:    make(map[*types.Func]*IteratorFact),
		labels:   make(map[ast.Stmt]*ast.LabeledStmt),
		loopInfo: make(map[*ssa.Function][]*Scope),
	}
	for cur := range insp.Root().Preorder((*ast.CallExpr)(nil), (*ast.LabeledStmt)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.CallExpr:
			st.calls[n.Lparen] = cur
		case *ast.LabeledStmt:
			st.labels[n.Stmt] = n
		}
	}
	for _, h := range helpers() {
		st.helpers[h.id] = append(st.helpers[h.id], h)
	}
	for _, s := range extraHelpers.Values() {
		h, err := parseHelper(s)
		if err != nil {
			return nil, err
		}
		st.helpers[h.id] = append(st.helpers[h.id], h)
	}

	st.stores = flow.IndexStores(ssapkg.AllFuncs(ssaRes))
	for _, fn := range st.funcs {
		st.indexCreators(fn)
		st.loopInfo[fn] = st.handWritten(fn)
	}
	st.inferIterators()
	st.inferHelpers()
	for _, fn := range st.funcs {
		for _, s := range st.loopInfo[fn] {
			st.add(s)
		}
		st.callScopes(fn)
	}
	st.exportRetries()

	sort.SliceStable(st.res.Scopes, func(i, j int) bool { return st.res.Scopes[i].Pos() < st.res.Scopes[j].Pos() })
	if reportScopes {
		for _, s := range st.res.Scopes {
			pass.Reportf(s.Pos(), "%s", s.Summary())
		}
	}
	return st.res, nil
}

func (st *state) add(s *Scope) {
	st.res.Scopes = append(st.res.Scopes, s)
	switch s.Kind {
	case Loop, Goto:
		// Innermost first: loops come outermost first from flow.Loops.
		st.res.loops[s.Fn] = append([]*Scope{s}, st.res.loops[s.Fn]...)
	case Recursion, Callback, Iterator:
		if s.Fn != nil {
			st.res.whole[s.Fn] = append(st.res.whole[s.Fn], s)
		}
	}
}

// indexCreators records, for each closure fn creates, the instruction that creates it.
func (st *state) indexCreators(fn *ssa.Function) {
	var ops []*ssa.Value
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok {
				if anon, ok := mc.Fn.(*ssa.Function); ok && st.res.creators[anon] == nil {
					st.res.creators[anon] = instr
				}
				continue
			}
			for _, op := range instr.Operands(ops[:0]) {
				if anon, ok := (*op).(*ssa.Function); ok && anon.Parent() == fn && st.res.creators[anon] == nil {
					st.res.creators[anon] = instr
				}
			}
		}
	}
}

// handWritten finds the retry loops, goto loops and retrying recursion of fn.
func (st *state) handWritten(fn *ssa.Function) []*Scope {
	var scopes []*Scope
	ls := loops.Of(fn)
	if len(ls) > 0 && fn.Syntax() != nil {
		candidates := loopNodes(st.pass, fn.Syntax())
		taken := make(map[ast.Node]bool)
		// Innermost loops claim their syntax first.
		for i := len(ls) - 1; i >= 0; i-- {
			l := ls[i]
			d, ok := retryLoop(fn, l)
			node := st.loopSyntax(fn, l, candidates, taken)
			if node == nil {
				continue
			}
			taken[node] = true
			if !ok {
				continue
			}
			s := &Scope{Fn: fn, at: fn, Loop: l, Decisive: d.call}
			st.setLoopSyntax(s, node, candidates)
			for _, b := range l.Blocks(fn) {
				for _, instr := range b.Instrs {
					if c, ok := instr.(ssa.CallInstruction); ok {
						s.Calls = append(s.Calls, c)
					}
				}
			}
			s.Attempts = loopBound(fn, l, d.call)
			if d.policy && s.Attempts.Kind == BoundNone {
				s.Attempts.Kind = BoundUnknown // the policy may count attempts itself
			}
			extra, unknown := channelWaits(fn, l.Contains, l)
			s.Wait.Sleeps = append(sleeps(s.Calls, l), extra...)
			s.Wait.Kind = combineWaits(s.Wait.Sleeps, unknown)
			s.Deadline = observesDeadline(s.Calls)
			scopes = append([]*Scope{s}, scopes...)
		}
	}
	if s := st.recursion(fn); s != nil {
		scopes = append(scopes, s)
	}
	return scopes
}

// loopCandidates are the loop statements and labels of one function's syntax.
type loopCandidates struct {
	loops  []ast.Stmt // *ast.ForStmt, *ast.RangeStmt over an integer
	labels map[string]*ast.LabeledStmt
	gotos  map[string][]*ast.BranchStmt
	parent map[ast.Stmt]*ast.LabeledStmt // label of a labelled loop
}

// loopNodes collects the loops, labels and gotos of a function body, not descending into
// nested function literals (they are functions of their own).
func loopNodes(pass *analysis.Pass, syntax ast.Node) *loopCandidates {
	c := &loopCandidates{
		labels: make(map[string]*ast.LabeledStmt),
		gotos:  make(map[string][]*ast.BranchStmt),
		parent: make(map[ast.Stmt]*ast.LabeledStmt),
	}
	var body ast.Node
	switch s := syntax.(type) {
	case *ast.FuncDecl:
		body = s.Body
	case *ast.FuncLit:
		body = s.Body
	}
	if body == nil || reflect.ValueOf(body).IsNil() {
		return c
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt:
			c.loops = append(c.loops, n)
		case *ast.RangeStmt:
			// Ranges over integers, and over a ticker's channel (each tick an attempt).
			if t := pass.TypesInfo.TypeOf(n.X); t != nil && (typeis.Integer(t) || typeis.TimeChan(t)) {
				c.loops = append(c.loops, n)
			}
		case *ast.LabeledStmt:
			c.labels[n.Label.Name] = n
			if inner, ok := n.Stmt.(*ast.ForStmt); ok {
				c.parent[inner] = n
			}
			if inner, ok := n.Stmt.(*ast.RangeStmt); ok {
				c.parent[inner] = n
			}
		case *ast.BranchStmt:
			if n.Tok == token.GOTO && n.Label != nil {
				c.gotos[n.Label.Name] = append(c.gotos[n.Label.Name], n)
			}
		}
		return true
	})
	return c
}

// loopSyntax returns the statement that gave rise to natural loop l: a for loop or a range
// over an integer (when the loop's header is one of theirs), or a labelled statement that a
// goto jumps back to. Range loops over collections, channels and functions give nil: they
// iterate.
func (st *state) loopSyntax(fn *ssa.Function, l *loops.Loop, c *loopCandidates, taken map[ast.Node]bool) ast.Node {
	comment := l.Header.Comment
	switch {
	case strings.HasPrefix(comment, "for.") || strings.HasPrefix(comment, "rangeint.") || strings.HasPrefix(comment, "rangechan."):
	default:
		if ls := c.labels[comment]; ls != nil && len(c.gotos[comment]) > 0 {
			return ls
		}
		return nil
	}
	lo, hi := token.NoPos, token.NoPos
	for _, b := range l.Blocks(fn) {
		for _, instr := range b.Instrs {
			p := instr.Pos()
			if _, isPhi := instr.(*ssa.Phi); isPhi || !p.IsValid() {
				// A phi's position is its variable's declaration, maybe before the loop.
				continue
			}
			if !lo.IsValid() || p < lo {
				lo = p
			}
			if p > hi {
				hi = p
			}
		}
	}
	if !lo.IsValid() {
		return nil
	}
	var best ast.Stmt
	for _, n := range c.loops {
		if taken[n] || n.Pos() > lo || hi >= n.End() {
			continue
		}
		if best == nil || n.Pos() > best.Pos() {
			best = n
		}
	}
	if best == nil {
		return nil
	}
	return best
}

// setLoopSyntax fills in a loop scope's syntax.
func (st *state) setLoopSyntax(s *Scope, node ast.Node, c *loopCandidates) {
	s.Node, s.Body = node, node
	switch n := node.(type) {
	case *ast.ForStmt:
		s.Kind, s.Stmt, s.From, s.To = Loop, n, n.Pos(), n.End()
		if n.Init != nil {
			s.From = n.Init.End()
		}
		if ls := c.parent[n]; ls != nil {
			s.Stmt = ls
		}
	case *ast.RangeStmt:
		s.Kind, s.Stmt, s.From, s.To = Loop, n, n.Body.Pos(), n.End()
		if ls := c.parent[n]; ls != nil {
			s.Stmt = ls
		}
	case *ast.LabeledStmt:
		s.Kind, s.Stmt, s.From, s.To = Goto, n, n.Pos(), n.End()
		for _, g := range c.gotos[n.Label.Name] {
			s.To = max(s.To, g.End())
		}
	}
}

// recursion finds a function that calls itself again after a failure: the recursive call is
// only reachable through the failure side of a test of a call's outcome.
func (st *state) recursion(fn *ssa.Function) *Scope {
	decl, ok := fn.Syntax().(*ast.FuncDecl)
	if !ok || fn.Object() == nil {
		return nil
	}
	all := func(*ssa.BasicBlock) bool { return true }
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || call.Common().StaticCallee() != fn || !sameOperation(fn, call) {
				continue
			}
			for _, d := range decisions(fn, all) {
				failure := d.block.Succs[1-d.success]
				if d.call == ssa.CallInstruction(call) || !failure.Dominates(b) || d.block.Succs[d.success].Dominates(b) {
					continue
				}
				s := &Scope{Kind: Recursion, Fn: fn, at: fn, Node: decl, Body: decl, From: decl.Pos(), To: decl.End(), Decisive: d.call}
				for _, bb := range fn.Blocks {
					for _, in := range bb.Instrs {
						if c, ok := in.(ssa.CallInstruction); ok {
							s.Calls = append(s.Calls, c)
						}
					}
				}
				s.Attempts = recursionBound(fn, call)
				extra, unknown := channelWaits(fn, all, nil)
				s.Wait.Sleeps = append(sleeps(s.Calls, nil), extra...)
				s.Wait.Kind = combineWaits(s.Wait.Sleeps, unknown)
				s.Deadline = observesDeadline(s.Calls)
				return s
			}
		}
	}
	return nil
}

// sameOperation reports whether a recursive call repeats the call it is in: every argument is
// the same parameter, a constant, or a counter (a parameter plus or minus a constant).
// Recursion over smaller data (path[1:], node.Next) walks a structure; it does not retry.
func sameOperation(fn *ssa.Function, call *ssa.Call) bool {
	args := call.Common().Args
	if len(args) != len(fn.Params) {
		return false
	}
	for i, a := range args {
		p := fn.Params[i]
		switch a := flow.Unwrap(a).(type) {
		case *ssa.Const:
		case *ssa.BinOp:
			if _, ok := flow.IntConst(a.Y); !ok || flow.Unwrap(a.X) != p || (a.Op != token.ADD && a.Op != token.SUB) {
				return false
			}
		default:
			if !flow.SameValue(a, p) {
				return false
			}
		}
	}
	return true
}

// recursionBound: a recursion that passes a parameter minus a constant to itself is bounded by
// that parameter (checked before recursing); anything else is unbounded.
func recursionBound(fn *ssa.Function, call *ssa.Call) Bound {
	for i, a := range call.Common().Args {
		bin, ok := a.(*ssa.BinOp)
		if !ok || i >= len(fn.Params) || bin.X != fn.Params[i] {
			continue
		}
		if _, ok := flow.IntConst(bin.Y); ok && (bin.Op == token.SUB || bin.Op == token.ADD) {
			return Bound{Kind: BoundVar}
		}
	}
	return Bound{Kind: BoundNone}
}

// helperFor returns what the model knows of fn as a retry helper: the built-in table, a
// helper inferred in this package, or an imported fact.
func (st *state) helperFor(call ssa.CallInstruction) (*helper, *HelperFact, *types.Func) {
	fn := flow.Callee(call.Common())
	if fn == nil {
		return nil, nil, nil
	}
	if hs := st.helpers[flow.ID(fn)]; len(hs) > 0 {
		return &hs[0], nil, fn
	}
	if f := st.local[fn]; f != nil {
		return nil, f, fn
	}
	if fn.Pkg() != nil && fn.Pkg() != st.pass.Pkg {
		var f HelperFact
		if st.pass.ImportObjectFact(fn, &f) {
			return nil, &f, fn
		}
	}
	return nil, nil, fn
}

// inferHelpers finds the functions of this package that retry a func-typed parameter.
func (st *state) inferHelpers() {
	st.fixpoint(func(fn *ssa.Function, obj *types.Func) bool {
		if st.local[obj] != nil || fn.Signature.Params().Len() == 0 {
			return false
		}
		f := st.inferHelper(fn)
		if f == nil {
			return false
		}
		st.local[obj] = f
		st.export(obj, f)
		return true
	})
}

// fixpoint runs step over the package's functions until a round finds nothing new, so that
// a fact built on another local one (a helper of a helper) is found too. step reports
// whether it found something.
func (st *state) fixpoint(step func(fn *ssa.Function, obj *types.Func) bool) {
	for range 4 {
		changed := false
		for _, fn := range st.funcs {
			if obj, ok := fn.Object().(*types.Func); ok && step(fn, obj) {
				changed = true
			}
		}
		if !changed {
			return
		}
	}
}

// export exports f for obj when obj belongs to this package (not to an instantiation's origin
// elsewhere).
func (st *state) export(obj *types.Func, f analysis.Fact) {
	if obj.Pkg() == st.pass.Pkg {
		st.pass.ExportObjectFact(obj, f)
	}
}

// inferHelper returns a HelperFact when fn calls one of its func-typed parameters inside one
// of its own retry scopes, or passes it to a retry helper.
func (st *state) inferHelper(fn *ssa.Function) *HelperFact {
	var fact *HelperFact
	params := fn.Params
	if fn.Signature.Recv() != nil && len(params) > 0 {
		params = params[1:]
	}
	for i, p := range params {
		sig, ok := p.Type().Underlying().(*types.Signature)
		if !ok || !typeis.ReturnsError(sig) {
			continue // a notification callback is called, not retried
		}
		var found *Scope
		for _, s := range st.loopInfo[fn] {
			for _, c := range s.Calls {
				if callsValue(c, p) || passesValue(c, p) {
					found = s
				}
			}
		}
		if found == nil {
			found = st.passesToHelper(fn, p)
		}
		if found == nil {
			continue
		}
		if fact == nil {
			fact = &HelperFact{Attempts: found.Attempts, Wait: found.Wait.Kind, Deadline: found.Deadline}
		}
		fact.Params = append(fact.Params, i)
	}
	return fact
}

// callsValue reports whether call calls v, directly or as a closure's free variable bound to v.
func callsValue(call ssa.CallInstruction, v ssa.Value) bool {
	c := call.Common()
	return !c.IsInvoke() && flow.SameValue(c.Value, v)
}

// passesValue reports whether call hands p, or a closure that calls p, to the function it
// calls (a wrapper that calls it once, such as a timeout helper).
func passesValue(call ssa.CallInstruction, p ssa.Value) bool {
	for _, a := range call.Common().Args {
		if flow.SameValue(a, p) || closureCalls(flow.Unwrap(a), p) {
			return true
		}
	}
	return false
}

// passesToHelper returns the scope of a call in fn that retries p: a helper call whose
// retried function is p or a closure that calls p, or a range over a retry iterator whose
// body calls p.
func (st *state) passesToHelper(fn *ssa.Function, p *ssa.Parameter) *Scope {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if s := st.iteratorScope(call); s != nil && closureCalls(flow.Unwrap(call.Common().Args[0]), p) {
				return s
			}
			s := st.callbackScope(call)
			if s == nil {
				continue
			}
			for _, a := range st.callbackArgs(call) {
				if flow.SameValue(a, p) || closureCalls(a, p) {
					return s
				}
			}
		}
	}
	return nil
}

// closureCalls reports whether v is a closure that calls p, bound as one of its free variables.
func closureCalls(v ssa.Value, p ssa.Value) bool {
	mc, ok := v.(*ssa.MakeClosure)
	if !ok {
		return false
	}
	anon, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return false
	}
	for i, b := range mc.Bindings {
		if i >= len(anon.FreeVars) || b != p && !flow.IsBoxOf(b, p) {
			continue
		}
		fv := anon.FreeVars[i]
		for _, bb := range anon.Blocks {
			for _, instr := range bb.Instrs {
				c, ok := instr.(ssa.CallInstruction)
				if !ok || c.Common().IsInvoke() {
					continue
				}
				v := flow.Unwrap(c.Common().Value)
				if load, isLoad := v.(*ssa.UnOp); isLoad && load.Op == token.MUL && load.X == fv || v == fv {
					return true
				}
			}
		}
	}
	return false
}

// callbackArgs returns the retried function arguments of a helper call (unwrapped).
func (st *state) callbackArgs(call ssa.CallInstruction) []ssa.Value {
	h, fact, fn := st.helperFor(call)
	if fn == nil || h == nil && fact == nil {
		return nil
	}
	site := st.newSite(call, fn)
	var idx []int
	if h != nil {
		idx = []int{h.arg}
	} else {
		idx = fact.Params
	}
	var out []ssa.Value
	for _, i := range idx {
		if a := site.Arg(i); a != nil {
			out = append(out, flow.Unwrap(a))
		}
	}
	return out
}

// callbackScope returns the Callback scope of a call to a retry helper, or nil.
func (st *state) callbackScope(call ssa.CallInstruction) *Scope {
	h, fact, fn := st.helperFor(call)
	if fn == nil || h == nil && fact == nil {
		return nil
	}
	site := st.newSite(call, fn)
	if h != nil && h.when != nil && !h.when(site) {
		return nil
	}
	idx := fact.paramsOr(h)
	for _, i := range idx {
		if a := site.Arg(i); a == nil || flow.IsNil(flow.Unwrap(a)) {
			return nil // nothing to retry
		}
	}
	s := &Scope{Kind: Callback, Func: fn, Helper: helperName(fn)}
	if h != nil {
		h.summarise(site, s)
	} else {
		s.Attempts, s.Wait.Kind, s.Deadline = fact.Attempts, fact.Wait, fact.Deadline
	}
	return s
}

func helperName(fn *types.Func) string {
	if fn == nil {
		return ""
	}
	id := flow.ID(fn)
	if id.Recv != "" {
		return fmt.Sprintf("%s.%s.%s", id.Pkg, id.Recv, id.Name)
	}
	return id.Pkg + "." + id.Name
}

// callScopes adds the Callback and Client scopes of the calls in fn.
func (st *state) callScopes(fn *ssa.Function) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if s := st.iteratorScope(call); s != nil {
				s.at = fn
				st.add(s)
				continue
			}
			if s := st.callbackScope(call); s != nil {
				s.at = fn
				st.setCallSyntax(s, call)
				for _, a := range st.callbackArgs(call) {
					cb := callbackFunc(a)
					if cb == nil {
						continue
					}
					s.Fn = cb
					if syn := cb.Syntax(); syn != nil {
						s.Body, s.From, s.To = syn, syn.Pos(), syn.End()
					}
					for _, bb := range cb.Blocks {
						for _, in := range bb.Instrs {
							if c, ok := in.(ssa.CallInstruction); ok {
								s.Calls = append(s.Calls, c)
							}
						}
					}
					if s.Deadline == DeadlineNone {
						s.Deadline = observesDeadline(s.Calls)
					}
					break
				}
				st.add(s)
				continue
			}
			if s := st.clientScope(call); s != nil {
				s.at = fn
				st.setCallSyntax(s, call)
				st.add(s)
			}
		}
	}
}

// callbackFunc returns the function with a body that a callback value runs: a function
// literal, a function of this package, or the method behind a method value.
func callbackFunc(v ssa.Value) *ssa.Function {
	var fn *ssa.Function
	switch v := v.(type) {
	case *ssa.Function:
		fn = v
	case *ssa.MakeClosure:
		fn, _ = v.Fn.(*ssa.Function)
	}
	if fn == nil {
		return nil
	}
	if fn.Synthetic != "" { // a method value's wrapper: find the method it calls
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if c, ok := instr.(ssa.CallInstruction); ok {
					if callee := c.Common().StaticCallee(); callee != nil {
						fn = callee
					}
				}
			}
		}
	}
	if len(fn.Blocks) == 0 {
		return nil
	}
	return fn
}

// clientScope returns the Client scope of a call through a self-retrying client, or nil.
func (st *state) clientScope(call ssa.CallInstruction) *Scope {
	fn := flow.Callee(call.Common())
	if fn == nil {
		return nil
	}
	id := flow.ID(fn)
	for _, c := range st.clients {
		if !c.match(id) {
			continue
		}
		site := st.newSite(call, fn)
		if c.when != nil && !c.when(site) {
			continue
		}
		s := &Scope{Kind: Client, Func: fn, Helper: helperName(fn)}
		c.summarise(site, s)
		return s
	}
	return nil
}

// setCallSyntax fills in the syntax of a scope made by a call: the call expression and the
// statement holding it.
func (st *state) setCallSyntax(s *Scope, call ssa.CallInstruction) {
	cur, ok := st.calls[call.Pos()]
	if !ok {
		return
	}
	s.Node = cur.Node()
	if stmt, ok := syntax.EnclosingStmt(cur); ok {
		s.Stmt = stmt.Node().(ast.Stmt)
	}
}

// exportRetries exports a RetriesFact for every function of the package that retries,
// directly or through the functions it calls.
func (st *state) exportRetries() {
	retries := make(map[*ssa.Function]*RetriesFact)
	root := func(fn *ssa.Function) *ssa.Function {
		for fn.Parent() != nil {
			fn = fn.Parent()
		}
		return fn
	}
	for _, s := range st.res.Scopes {
		at := root(s.at)
		if retries[at] == nil {
			retries[at] = &RetriesFact{Attempts: s.Attempts, Where: st.where(s)}
		}
	}
	// Through calls, until nothing changes.
	for range 8 {
		changed := false
		for _, fn := range st.funcs {
			r := root(fn)
			if retries[r] != nil {
				continue
			}
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					call, ok := instr.(ssa.CallInstruction)
					if !ok || retries[r] != nil {
						continue
					}
					callee := call.Common().StaticCallee()
					if callee != nil && retries[callee] != nil {
						f := *retries[callee]
						f.Via = callee.Name()
						retries[r] = &f
						changed = true
						continue
					}
					if obj := flow.Callee(call.Common()); obj != nil && obj.Pkg() != nil && obj.Pkg() != st.pass.Pkg {
						var f RetriesFact
						if st.pass.ImportObjectFact(obj, &f) {
							f.Via = obj.Name()
							retries[r] = &f
							changed = true
						}
					}
				}
			}
		}
		if !changed {
			break
		}
	}
	for fn, f := range retries {
		if obj, ok := fn.Object().(*types.Func); ok && obj.Pkg() == st.pass.Pkg {
			st.pass.ExportObjectFact(obj, f)
		}
	}
}

// where describes a scope's position for facts: "retry loop at file.go:12".
func (st *state) where(s *Scope) string {
	p := st.pass.Fset.Position(s.Pos())
	what := s.Kind.String()
	if s.Helper != "" {
		what += " (" + s.Helper + ")"
	}
	return fmt.Sprintf("%s at %s:%d", what, filepath.Base(p.Filename), p.Line)
}
