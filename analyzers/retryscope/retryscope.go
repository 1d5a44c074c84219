package retryscope

import (
	_ "embed"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"sort"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/config"
	"github.com/idemlint/idemlint/analyzers/internal/docs"
	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/guard"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/internal/ssapkg"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
	"github.com/idemlint/idemlint/analyzers/keys"
	"github.com/idemlint/idemlint/analyzers/remote"
)

//go:embed doc.go
var doc string

// Analyzer finds the retry scopes of a package and exports what other packages need to know
// about them as facts. It reports nothing unless -retryscope.report is set.
var Analyzer = &analysis.Analyzer{
	Name:       "retryscope",
	Doc:        docs.MustExtract(doc, "retryscope"),
	URL:        docs.URL("retryscope"),
	Requires:   []*analysis.Analyzer{ssapkg.Analyzer, ssapkg.Stores, inspect.Analyzer, remote.Analyzer, keys.Analyzer},
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{new(helperFact), new(retriesFact), new(iteratorFact), new(waitsFact), new(waiterFact), new(delayFact), new(frameworkFact), new(consumesFact), new(zeroFieldFact), new(predicateFact), new(counterFact), new(throughFact), new(forwardFact), new(fillsFact), new(startsFact), new(joinsFact)},
	Run:        guard.Run("retryscope", run),
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
	// IteratorLoops are the loops of the retry iterators written in this package (Loop scopes
	// with Iterates set): where their waits and bounds are written. The bodies of ranges over
	// them are Iterator scopes in Scopes.
	IteratorLoops []*Scope
	// Lifecycles are long-running loops of this package that never leave on success (they
	// serve, heartbeat, consume until they are stopped) but try a call again after it fails,
	// waiting first: a reconnect or resubscribe (Loop and Goto scopes with Lifecycle set and
	// the waits on the failure's side). They are not retry scopes: they are not in Scopes.
	Lifecycles []*Scope
	// Requeues are the calls of this package that hand a failed delivery back to its
	// framework to be delivered again at once.
	Requeues []*Requeue
	// Wired are the calls and stores of this package that hand a value to another package's
	// retry scope whose methods, on this value, retry on their own (see wired.go).
	Wired []*Wired

	sets  map[string]bool // fields the package stores into, as "pkg/path.Field" (Configures)
	calls map[string]bool // functions the package calls, as funcKey writes them

	reaches  map[*ssa.Function]*Scope             // a scope each function of the package holds or calls into
	imported map[ssa.CallInstruction]*retriesFact // calls of other packages' retrying functions
	retries  map[*ssa.Function]*retriesFact       // the package's functions that retry

	loops    map[*ssa.Function][]*Scope // Loop and Goto scopes, innermost first
	whole    map[*ssa.Function][]*Scope // scopes whose every instruction of the function repeats
	creators map[*ssa.Function]ssa.Instruction
	// afterTypes: the package's error types, each with whether it is made only from a
	// Retry-After header (retryAfterTypes).
	afterTypes map[*types.TypeName]bool
	// waiting: how the package's functions wait, as worked out (state.waitMemo).
	waiting map[*ssa.Function]*waitsFact
	// funcs: the package's functions; callers, their static calls by callee, made on first use
	// (ConflictDone).
	funcs   []*ssa.Function
	callers map[*ssa.Function][]ssa.CallInstruction
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
		out = r.within(out, fn, b)
		creator := r.creators[fn]
		if creator == nil {
			break
		}
		fn, b = creator.Parent(), creator.Block()
	}
	return out
}

// EnclosingIn returns the scopes in which instr runs once per attempt within its own function,
// innermost first: the loops around it and the scopes whose code is the function (a retrying
// recursion, a callback, a framework's handler), not those of the functions that make the
// closure it is in (see Enclosing).
func (r *Result) EnclosingIn(instr ssa.Instruction) []*Scope {
	return r.within(nil, instr.Parent(), instr.Block())
}

// within appends to out the scopes of fn around block b, innermost first.
func (r *Result) within(out []*Scope, fn *ssa.Function, b *ssa.BasicBlock) []*Scope {
	for _, s := range r.loops[fn] {
		if s.Loop.Contains(b) {
			out = append(out, s)
		}
	}
	return append(out, r.whole[fn]...)
}

// Reached returns the retry layer that a call enters: a scope of this package that the
// called function holds or calls into, or, for a function of another package, its
// retriesFact. Both are nil when the callee does not retry (or the model cannot tell).
func (r *Result) Reached(call ssa.CallInstruction) (*Scope, *retriesFact) {
	if callee := call.Common().StaticCallee(); callee != nil {
		if s := r.reaches[callee]; s != nil {
			return s, nil
		}
		if f := r.retries[callee]; f != nil {
			return nil, f // a function of this package that calls another package's retrying one
		}
	}
	return nil, r.imported[call]
}

// Paced reports whether the attempt of the hand-written scope s enters a retry layer that
// waits between its own attempts: a retry helper or self-retrying client called there, a
// scope of this package that its callee holds, or another package's retrying function (whose
// waits the model does not track: retry layers wait). Its calls go out at that layer's pace,
// whatever s does between its rounds. Endless says that the layer never gives up on its own
// (no attempt cap, no time limit, no context), so s goes round only on what it hands back at
// once: s multiplies nothing and paces nothing, and the layer's own finding is the one cause.
func (r *Result) Paced(s *Scope) (paced, endless bool) {
	call := s.Decisive
	if call == nil || !s.Kind.HandWritten() {
		return false, false
	}
	inner, fact := r.Reached(call)
	if inner == nil && fact == nil {
		for _, in := range r.Scopes {
			if in.Site == call && (in.Kind == Callback || in.Kind == Client) {
				inner = in
				break
			}
		}
	}
	switch {
	case inner != nil:
		if inner.Poll || inner.Reach == remote.ReachLocal || inner.Wait.Kind == WaitNone {
			return false, false
		}
		return true, inner.Attempts.Kind == BoundNone && inner.Deadline == DeadlineNone
	case fact != nil:
		return !fact.Local, false
	}
	return false, false
}

// CallsRetrying reports whether the package calls a function that retries (Reached).
func (r *Result) CallsRetrying() bool { return len(r.imported) > 0 || len(r.retries) > 0 }

// In returns the scopes whose repeating code is the function fn itself.
func (r *Result) In(fn *ssa.Function) []*Scope { return r.whole[fn] }

type state struct {
	pass       *analysis.Pass
	res        *Result
	funcs      []*ssa.Function
	counters   map[*ssa.Function][]string     // counterSteppers of the package's methods
	calls      map[token.Pos]inspector.Cursor // *ast.CallExpr by Lparen
	helpers    map[flow.FuncID][]helper
	local      map[*types.Func]*helperFact   // helpers inferred in this package
	iters      map[*types.Func]*iteratorFact // retry iterators made by functions of this package
	labels     map[ast.Stmt]*ast.LabeledStmt // the label of each labelled statement
	stores     *flow.Stores                  // values stored into fields and package variables
	loopInfo   map[*ssa.Function][]*Scope    // hand-written scopes per function
	ssaPkg     *ssa.Package
	starts     map[*ssa.Function][]int                      // the package's functions' parameters started in the background
	joins      map[*ssa.Function]bool                       // the package's methods that wait for a WaitGroup
	waitMemo   map[*ssa.Function]*waitsFact                 // how the package's functions wait (nil: they do not)
	loopWaits  map[*ssa.BasicBlock]map[*ssa.BasicBlock]bool // by loop header: its blocks that wait in their own code
	impls      *flow.Implementers                           // the package's own implementations of its interfaces
	iterMemo   map[*ssa.Function]*iteratorFact
	timerMemo  map[*ssa.Function]*iteratorFact // memo of retryTimer
	preds      map[*ssa.Function]verdictField  // the package's verdict predicates (verdictPredicates)
	marks      map[*ssa.Function][]flow.FuncID // memo of marksOf, by predicate
	byObj      map[*types.Func]*ssa.Function   // the package's functions by object (see funcOf)
	builds     map[*framework]bool             // frameworks whose deliveries the package builds
	rem        *remote.Result                  // which calls may leave the process
	keys       *keys.Result                    // which calls make fresh unique values
	consumed   map[*types.Func]int             // memo of sourceParam for other packages' functions (sources.go)
	takes      map[takeKey]bool                // memo of takesFrom (sources.go)
	handed     map[*ssa.Call]bool              // StandardClient calls whose client a scope hands away (handedclients.go)
	writers    map[*types.Var][]*ssa.Function  // the functions that write each field (storedElsewhere)
	sentOn     map[any]bool                    // channels the package sends on, by chanKey (wokenByEvent)
	pacedMemo  map[string]bool                 // knowledge.Pacer packages whose clients the package paces
	ownAnswers map[ownKey]bool                 // error variables a function returns itself (ownAnswer)
	// localSentinels memoizes madeLocally: the package's error variables, each with whether
	// only functions staying in the process make it.
	localSentinels map[*ssa.Global]bool
	// remoteFileErrors memoizes localResources' scan: 1 when a function of the package that
	// may leave the process hands on fs.ErrNotExist or its kind, 2 when none does.
	remoteFileErrors int
}

func run(pass *analysis.Pass) (any, error) {
	ssaRes := pass.ResultOf[ssapkg.Analyzer].(*buildssa.SSA)
	insp := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	waitMemo := make(map[*ssa.Function]*waitsFact)
	st := &state{
		waitMemo:  waitMemo,
		loopWaits: make(map[*ssa.BasicBlock]map[*ssa.BasicBlock]bool),
		pass:      pass,
		res: &Result{
			loops:      make(map[*ssa.Function][]*Scope),
			whole:      make(map[*ssa.Function][]*Scope),
			creators:   make(map[*ssa.Function]ssa.Instruction),
			reaches:    make(map[*ssa.Function]*Scope),
			imported:   make(map[ssa.CallInstruction]*retriesFact),
			afterTypes: retryAfterTypes(ssaRes.SrcFuncs),
			waiting:    waitMemo,
			funcs:      ssaRes.SrcFuncs,
		},
		funcs:          ssaRes.SrcFuncs,
		calls:          make(map[token.Pos]inspector.Cursor),
		helpers:        make(map[flow.FuncID][]helper),
		local:          make(map[*types.Func]*helperFact),
		pacedMemo:      make(map[string]bool),
		ownAnswers:     make(map[ownKey]bool),
		localSentinels: make(map[*ssa.Global]bool),
		iters:          make(map[*types.Func]*iteratorFact),
		labels:         make(map[ast.Stmt]*ast.LabeledStmt),
		loopInfo:       make(map[*ssa.Function][]*Scope),
		ssaPkg:         ssaRes.Pkg,
		iterMemo:       make(map[*ssa.Function]*iteratorFact),
		timerMemo:      make(map[*ssa.Function]*iteratorFact),
		rem:            pass.ResultOf[remote.Analyzer].(*remote.Result),
		keys:           pass.ResultOf[keys.Analyzer].(*keys.Result),
		consumed:       make(map[*types.Func]int),
		takes:          make(map[takeKey]bool),
		handed:         make(map[*ssa.Call]bool),
	}
	for cur := range insp.Root().Preorder((*ast.CallExpr)(nil), (*ast.LabeledStmt)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.CallExpr:
			st.calls[n.Lparen] = cur
		case *ast.LabeledStmt:
			st.labels[n.Stmt] = n
		}
	}
	for _, h := range tableHelpers() {
		st.helpers[h.id] = append(st.helpers[h.id], h)
	}
	for _, s := range extraHelpers.Values() {
		h, err := parseHelper(s)
		if err != nil {
			return nil, err
		}
		st.helpers[h.id] = append(st.helpers[h.id], h)
	}

	st.stores = pass.ResultOf[ssapkg.Stores].(*flow.Stores)
	st.res.sets, st.res.calls = make(map[string]bool), make(map[string]bool)
	for fv := range st.stores.Fields {
		if fv.Pkg() != nil {
			st.res.sets[fv.Pkg().Path()+"."+fv.Name()] = true
		}
	}
	for _, fn := range st.funcs {
		for call := range flow.Calls(fn) {
			if obj := flow.Callee(call.Common()); obj != nil && obj.Pkg() != nil {
				st.res.calls[funcKey(flow.ID(obj))] = true
			}
		}
	}
	st.importPredicates()
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
	st.frameworkScopes()
	st.res.Requeues = st.requeues()
	st.setReach(st.rem)
	st.exportZeroFields()
	st.exportPredicates()
	st.exportStarts()
	st.exportRetries()
	st.exportThroughs()
	st.exportForwards()
	st.wired()
	st.exportWaits()
	st.exportCounters()
	st.exportConsumers()

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
	case Activity, Handler, Reconciler:
		switch {
		case s.Loop != nil:
			st.res.loops[s.Fn] = insertLoop(st.res.loops[s.Fn], s)
		case s.Fn != nil:
			st.res.whole[s.Fn] = append(st.res.whole[s.Fn], s)
		}
	}
}

// setReach says of every scope whether its attempts may leave the process (Scope.Reach): a
// self-retrying client's do; otherwise whether one of the fallible calls the scope repeats (its
// decisive call, and every call that returns an error: the attempt's work, not its logging)
// may; a callback the model cannot see may do anything.
func (st *state) setReach(rem *remote.Result) {
	clients := make(map[ssa.CallInstruction]bool) // calls through self-retrying clients: remote by the tables
	for _, s := range st.res.Scopes {
		if s.Kind == Client && s.Site != nil {
			clients[s.Site] = true
		}
	}
	reach := func(c ssa.CallInstruction) remote.Reach {
		if clients[c] {
			return remote.ReachRemote
		}
		return rem.Reach(c)
	}
	defer func() {
		for _, list := range [][]*Scope{st.res.Scopes, st.res.Lifecycles} {
			for _, s := range list {
				st.markAfterLocal(s, reach)
			}
		}
		for _, s := range st.res.Scopes {
			if answeredCallback(s, reach) || polledCallback(s, reach) {
				s.Answered, s.Poll = true, true
			}
			if s.Kind == Loop && s.Reach == remote.ReachRemote && st.answered(s, reach) {
				s.Answered = true
				for i := range s.Wait.Sleeps {
					s.Wait.Sleeps[i].AfterSuccess = true
				}
			}
		}
	}()
	for _, list := range [][]*Scope{st.res.Scopes, st.res.IteratorLoops, st.res.Lifecycles} {
		for _, s := range list {
			s.rem = rem
			switch {
			case s.Kind == Client:
				s.Reach = remote.ReachRemote
			case s.Fn == nil && s.Calls == nil:
				s.Reach = remote.ReachUnknown
			default:
				s.Reach = remote.ReachLocal
				if s.Decisive != nil {
					s.Reach = reach(s.Decisive)
				}
				var after func(ssa.CallInstruction) bool
				for _, c := range s.Calls {
					if _, started := c.(*ssa.Go); started || !fallible(c) {
						continue
					}
					r := reach(c)
					if r <= s.Reach {
						continue
					}
					if after == nil {
						after = afterAttempt(s, true)
					}
					if !after(c) {
						s.Reach = r
					}
				}
				if s.Reach != remote.ReachLocal && st.goesRoundOnLocal(s) {
					s.Reach = remote.ReachLocal // it goes round only on this process's own refusal
				}
			}
		}
	}
	st.joinCallersReach(reach)
}

// joinCallersReach gives a retry helper's scope whose attempts reach the unknown only through
// the callbacks its callers hand it (a generic RunWithRetry(fn)) the reach of those callbacks:
// remote when a call in this package hands it one that reaches a remote call. Otherwise its
// reach is decided where it is called (Scope.CallersJudge, helperFact.CallersJudge): a helper
// nobody in view hands remote work protects no remote dependency yet.
func (st *state) joinCallersReach(reach func(ssa.CallInstruction) remote.Reach) {
	for _, s := range st.res.Scopes {
		if s.Reach != remote.ReachUnknown || s.Inferred || s.Fn == nil {
			continue
		}
		root := flow.Root(s.Fn)
		obj, ok := root.Object().(*types.Func)
		if !ok || st.local[obj] == nil || !onlyCallbacks(s, root, reach) {
			continue
		}
		remoteCaller := false
		for _, x := range st.res.Scopes {
			remoteCaller = remoteCaller || x.Inferred && x.Func == obj && x.Reach == remote.ReachRemote
		}
		if remoteCaller {
			s.Reach = remote.ReachRemote
			continue
		}
		s.CallersJudge = true
		st.local[obj].CallersJudge = true // the exported fact: encoded once the pass is done
	}
}

// onlyCallbacks reports whether every fallible call of scope s whose reach is unknown calls a
// func-typed parameter of fn of a generic signature, or hands one on, and no call of the
// scope reaches a remote call (a loop that dials again before it calls the callback).

func onlyCallbacks(s *Scope, fn *ssa.Function, reach func(ssa.CallInstruction) remote.Reach) bool {
	found := false
	for _, c := range s.Calls {
		if reach(c) == remote.ReachRemote {
			return false
		}
	}
	for _, c := range append(slices.Clone(s.Calls), s.Decisive) {
		if c == nil || !fallible(c) || reach(c) != remote.ReachUnknown {
			continue
		}
		param := false
		for _, p := range fn.Params {
			if sig, isFunc := p.Type().Underlying().(*types.Signature); isFunc && generic(sig) && (callsValue(c, p) || passesValue(c, p)) {
				param = true
				break
			}
		}
		if !param {
			return false
		}
		found = true
	}
	return found
}

// markAfterLocal marks the waits of loop scope s that only the failure of calls staying in
// the process leads to: every test of a call's outcome whose failure side leads to the wait
// tests a local call (Sleep.AfterLocal).
func (st *state) markAfterLocal(s *Scope, reach func(ssa.CallInstruction) remote.Reach) {
	if s.Loop == nil || s.Fn == nil || len(s.Wait.Sleeps) == 0 {
		return
	}
	ds := decisions(s.Fn, s.Loop.Contains)
	for i, sl := range s.Wait.Sleeps {
		at := sl.blockIn(s.Fn)
		if at == nil {
			continue
		}
		local, any := true, false
		for _, d := range ds {
			if d.policy || !d.block.Succs[1-d.success].Dominates(at) {
				continue
			}
			any = true
			local = local && st.localFailure(s, d, reach)
		}
		s.Wait.Sleeps[i].AfterLocal = any && local
	}
}

// judgesRemote reports whether call, which stays in the process, is handed what a call of
// loop l that may leave it returned (classify(resp), io.ReadFull(resp.Body, buf)): its
// failure is the dependency's answer.
func judgesRemote(call ssa.CallInstruction, l *loops.Loop, reach func(ssa.CallInstruction) remote.Reach) bool {
	cc := call.Common()
	found := false
	walked := make(map[*ssa.Store]bool) // each store once: x = f(x) in the loop stores a load of x
	var visit func(x ssa.Value) bool
	visit = func(x ssa.Value) bool {
		if load, ok := x.(*ssa.UnOp); ok && load.Op == token.MUL {
			// err kept in a variable a closure shares (session, err = Authorize(...) in a
			// goroutine): what the loop stores there.
			for _, b := range l.Blocks(call.Parent()) {
				for _, instr := range b.Instrs {
					if st, ok := instr.(*ssa.Store); ok && st.Addr == load.X && !found && !walked[st] {
						walked[st] = true
						flow.Backward(st.Val, 32, visit)
					}
				}
			}
		}
		if ex, ok := x.(*ssa.Extract); ok {
			x = ex.Tuple
		}
		if c, ok := x.(*ssa.Call); ok && c != call && c.Block() != nil && l.Contains(c.Block()) && reach(c) != remote.ReachLocal {
			found = true
		}
		return !found
	}
	for _, a := range append([]ssa.Value{cc.Value}, cc.Args...) {
		flow.Backward(a, 32, visit)
	}
	return found
}

// afterAttempt returns a test of whether a call of loop scope s is made only once the
// attempt has worked (on the success side of its decisive call), or only once it has failed
// (a step before going round), and does not send the loop round when it fails: the work
// done with what the attempt got (an accepted connection told it is over its limit), or a
// fix for what it found, not part of what is tried again. Without onSuccess, only the
// failure side's steps. A loop that retries a local
// Accept is local, whatever it then does with the connection.
func afterAttempt(s *Scope, onSuccess bool) func(ssa.CallInstruction) bool {
	if s.Loop == nil || s.Decisive == nil || s.Fn == nil {
		return func(ssa.CallInstruction) bool { return false }
	}
	ds := decisions(s.Fn, s.Loop.Contains)
	var success, failure *ssa.BasicBlock
	for _, d := range ds {
		if d.call == s.Decisive {
			success, failure = d.block.Succs[d.success], d.block.Succs[1-d.success]
			break
		}
	}
	return func(c ssa.CallInstruction) bool {
		if success == nil || c == s.Decisive || c.Block() == nil || c.Parent() != s.Fn {
			return false
		}
		// The success side's work, or a step on the failure side before going round (a
		// remote fix for a local build that failed): neither is the attempt.
		if !(onSuccess && success.Dominates(c.Block())) && (failure == nil || !failure.Dominates(c.Block()) || !s.Loop.Contains(failure)) {
			return false
		}
		for _, d := range ds {
			if d.call == c && s.Loop.CanRepeat(d.block.Succs[1-d.success]) {
				return false
			}
		}
		return true
	}
}

// answered reports whether loop scope s goes round only on an answer: its decisive call stays
// in the process (it judges what came back), and each call it makes that leaves the process
// and can fail is tested, the loop leaving on that failure. The dependency answered every
// round that goes round, and was not down: the loop waits for a state the answer reports (an
// OAuth device flow's "authorization_pending"), it does not retry a failure.
func (st *state) answered(s *Scope, reach func(ssa.CallInstruction) remote.Reach) bool {
	if s.Loop == nil || s.Decisive == nil || s.Fn == nil {
		return false
	}
	if reach(s.Decisive) == remote.ReachRemote {
		// A remote call whose failures leave the loop but for a 404, "not there yet": the
		// server answered every round that goes round, as when the judgement is made in the
		// process. (Not a conflict: clients that collide retry in step.)
		on := s.RetriesOn(s.Decisive)
		if on == FailNotFound || on == FailAnswered {
			return true // or on an error made from the answer ("CAPTCHA not match.")
		}
		if on == FailOther && st.readModifyWrite(s, reach) {
			return true // a lost compare-and-swap: read again, write anew
		}
		// Or every way round from a failure of it passes a test of the decoded answer's
		// state (an OAuth device flow's "authorization_pending"); its errors leave.
		named := false
		for _, d := range decisions(s.Fn, s.Loop.Contains) {
			if d.call != s.Decisive || d.policy || !s.Loop.CanRepeat(d.block.Succs[1-d.success]) {
				continue
			}
			if !namesState(d.block.Succs[1-d.success], s.Decisive, s.Loop) {
				return false
			}
			named = true
		}
		return named
	}
	if reach(s.Decisive) != remote.ReachLocal {
		return false
	}
	ds := decisions(s.Fn, s.Loop.Contains)
	// Only some answers send it round (errors.As on the answer's error, then its code): a
	// judgement that any error sends round (a check that turns a 5xx into an error) retries
	// the dependency's failures.
	for _, d := range ds {
		if d.call == s.Decisive {
			f := failuresOf(d)
			if f == AnyFailure {
				f = narrowed(d.block.Succs[1-d.success], d.call, s.Loop, s.Loop.Contains)
			}
			if f != FailOther {
				return false
			}
			break
		}
	}
	found := false
	for _, c := range s.Calls {
		if _, started := c.(*ssa.Go); started || !fallible(c) || reach(c) != remote.ReachRemote {
			continue
		}
		leaves := false
		for _, d := range ds {
			if d.call == c && !d.policy && !s.Loop.CanRepeat(d.block.Succs[1-d.success]) {
				leaves = true
			}
		}
		if !leaves {
			return false
		}
		found = true
	}
	return found
}

// fallible reports whether call returns an error.
func fallible(call ssa.CallInstruction) bool {
	res := call.Common().Signature().Results()
	for i := range res.Len() {
		if typeis.ErrorLike(res.At(i).Type()) {
			return true
		}
	}
	return false
}

// insertLoop inserts s into loop scopes listed innermost first: before the first one that
// encloses it.
func insertLoop(list []*Scope, s *Scope) []*Scope {
	i := slices.IndexFunc(list, func(o *Scope) bool { return o.Loop != s.Loop && o.Loop.Contains(s.Loop.Header) })
	if i < 0 {
		return append(list, s)
	}
	return slices.Insert(list, i, s)
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

// implementers returns the package's implementations of its interfaces, made once.
func (st *state) implementers() *flow.Implementers {
	if st.impls == nil {
		st.impls = flow.NewImplementers(st.ssaPkg)
	}
	return st.impls
}

// generic reports whether a callback's signature names no type of the work it does: its
// parameters and results are contexts, errors and basic values (func() error, func(ctx
// context.Context) error, func(try int) error), so that what it does is its caller's
// choice. A callback typed by its work (func(*http.Request) (*http.Response, error), a
// sender of the package's chunks) says what it reaches by its type.
func generic(sig *types.Signature) bool {
	for _, tup := range []*types.Tuple{sig.Params(), sig.Results()} {
		for v := range tup.Variables() {
			t := v.Type()
			if _, basic := t.Underlying().(*types.Basic); basic || typeis.Context(t) || typeis.Error(t) {
				continue
			}
			return false
		}
	}
	return true
}
