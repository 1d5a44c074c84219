package retryscope

import (
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/testcode"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
	"github.com/idemlint/idemlint/analyzers/remote"
	"golang.org/x/tools/go/ssa"
)

// helperFact marks a function that retries the function values passed as its parameters
// Params (indices, receiver excluded). The model infers it for any function that calls a
// func-typed parameter inside its own retry scope, or hands it to another helper.
type helperFact struct {
	Params   []int
	Attempts Bound
	Wait     WaitKind
	Deadline DeadlineKind
	// TurnedAway says the helper goes round only once the answer turned the attempt away
	// (429, 401) or it never left: a request its callback sends is not sent twice.
	TurnedAway bool
	// On is what the helper goes round on, of the errors its callback returns (RetriesOn of
	// its call of the callback): 0 when it was not worked out.
	On Failures
	// Verdict, when not zero, is one more than the index (receiver excluded) of the parameter
	// whose answer for the callback's error says whether to go round (isRetriable func(error)
	// bool): a call's retry set is what the predicate it hands in singles out.
	Verdict int
	// Matches, when not zero, is one more than the index (receiver excluded) of the parameter
	// holding the regular expression an error's text must match for the helper to go round
	// (if !errRegexp.MatchString(err.Error()) { return err }): a call's retry set is what the
	// expression it hands in names.
	Matches int
	// Stops names the error types (types.TypeString, "*pkg/path.T" for a pointer) that make
	// the helper return at once when its callback returns one: its own mark for errors not
	// to retry (if _, fatal := err.(Fatal); fatal { return err }).
	Stops []string
	// Marks are the functions whose errors the helper does not retry: the verdict marks of
	// the predicate it decides with (stopMarks; Halt(err) for a shouldRetry that reads !e.Halt).
	Marks []flow.FuncID
	// Named: the errors, by name, that alone make the helper go round (Scope.NamedOn).
	Named []NamedError
	// CallersJudge says that the helper's reach is its callers' callbacks' and that no caller
	// in its package hands it one that leaves the process: its calls are judged where they
	// hand one in (Scope.CallersJudge). Set once the package's reach is known.
	CallersJudge bool
}

func (*helperFact) AFact() {}

func (f *helperFact) String() string {
	str := fmt.Sprintf("retry helper for parameter %v: attempts=%s wait=%s deadline=%s", f.Params, f.Attempts, f.Wait, f.Deadline)
	if f.TurnedAway {
		str += " (only once turned away)"
	}
	if f.On != 0 && f.On != AnyFailure {
		str += " on " + f.On.String()
	}
	if f.CallersJudge {
		str += " (judged by its callers)"
	}
	if f.Verdict > 0 {
		str += fmt.Sprintf(" as parameter %d says", f.Verdict-1)
	}
	if f.Matches > 0 {
		str += fmt.Sprintf(" on errors parameter %d matches", f.Matches-1)
	}
	if len(f.Stops) > 0 {
		str += fmt.Sprintf(" (stops on %s)", strings.Join(f.Stops, ", "))
	}
	for _, m := range f.Marks {
		str += fmt.Sprintf(" (stops on %s.%s)", m.Pkg, m.Name)
	}
	return str
}

// retriesFact marks a function that retries internally: it holds a retry scope, or calls a
// function that does. Where says which scope; Via names the callee it is reached through
// ("" when the scope is in the function itself).
type retriesFact struct {
	Attempts Bound
	Where    string
	Via      string
	// Local says that the attempts retried stay in the process (a lock file, an OS call; see
	// Scope.Reach): not a layer of retries of a remote dependency.
	Local bool
	// On is what the scope retries (Scope.RetrySet); zero means every failure. Only, when
	// set, names the program's error variables that alone make it go round.
	On   Failures
	Only []string
	// Named: the errors, by name, that alone make the scope go round (Scope.NamedOn).
	Named []NamedError
	// Setting, when set, names the field the number of attempts comes from
	// ("pkg/path.MaxRetries"), whose default is zero: the function retries only where the
	// program sets it, directly or through one of Setters (the functions of its package that
	// store a value they are given there: options, setters).
	Setting string
	Setters []string
	// SwitchedOff says that the program sets the retries to one attempt in some
	// configuration (Scope.SwitchedOff).
	SwitchedOff bool
	// Kept says that a function on the way to the retry keeps its failure: it logs the error
	// and returns none (failureReturns). A retry around the function never sees that
	// failure, so the attempts do not multiply.
	Kept bool
	// HasCount says that the caller hands in the retry count: parameter CountParam (receiver
	// included), or its field CountField (-1: the parameter itself), plus CountOffset, is the
	// number of retries after the first attempt (see handedCount).
	HasCount                            bool
	CountParam, CountField, CountOffset int
	// UntilCtx, when not zero, says that the retries have no attempt cap and end only when
	// the context of parameter UntilCtx-1 (receiver included) is done: a caller that hands
	// it context.Background() retries for ever.
	UntilCtx int
}

func (*retriesFact) AFact() {}

func (f *retriesFact) count() handedCount {
	return handedCount{Param: f.CountParam, Field: f.CountField, Offset: f.CountOffset}
}

func (f *retriesFact) setCount(h handedCount, ok bool) {
	f.HasCount, f.CountParam, f.CountField, f.CountOffset = ok, h.Param, h.Field, h.Offset
}

func (f *retriesFact) String() string {
	s := fmt.Sprintf("retries: %s, attempts=%s", f.Where, f.Attempts)
	if f.Via != "" {
		s += " via " + f.Via
	}
	if f.Local {
		s += " (local)"
	}
	if f.Kept {
		s += " (failure kept)"
	}
	if f.UntilCtx > 0 {
		s += fmt.Sprintf(" until the context of parameter %d is done", f.UntilCtx-1)
	}
	return s
}

// waitsFact marks a function that waits: it sleeps, waits on a timer's channel, or calls a
// function that does. A loop that calls it waits between attempts. Param is the index among
// the call's arguments (receiver included) of the duration parameter its waits use, or -1.
type waitsFact struct {
	Kind  WaitKind
	Param int
	// Own says the function waits in its own code, not only through the functions it calls.
	Own bool
	// OnWayOut says the function makes a wait on its way out, after the work that may leave
	// the process (see onWayOut): an attempt that backs off before it returns. OutKind is how
	// such waits wait.
	OnWayOut bool
	OutKind  WaitKind
	// OnWayIn says the function waits before anything it does may leave the process (see
	// onWayIn): a try that waits, then sends. InKind is how that wait waits.
	OnWayIn bool
	InKind  WaitKind
	InStops bool // that wait is a select that another channel can end
	// Refuses says the function can return an error without waiting (see refuses): a loop
	// that leaves on that error is capped by the function's policy.
	Refuses bool
}

func (*waitsFact) AFact() {}

func (f *waitsFact) String() string {
	if f.Param >= 0 {
		return fmt.Sprintf("waits: %s, for argument %d", f.Kind, f.Param)
	}
	return fmt.Sprintf("waits: %s", f.Kind)
}

// delayFact marks an exported function whose first result is a delay (a time.Duration) that
// the model can classify: computed with a random source (jittered), growing with its
// arguments or kept state (backoff), or from constants and configuration only (fixed).
// FromParams says the delay is computed from its arguments (the attempt number). A loop that
// waits the delay it returns waits that kind of delay. When the random draw is made only while
// a bool field of the receiver is set (jpillora/backoff's Jitter), JitterField and JitterPkg
// name that field and Plain is the kind of delay without it.
type delayFact struct {
	Kind                   WaitKind
	FromParams             bool
	JitterField, JitterPkg string
	Plain                  WaitKind
}

func (*delayFact) AFact() {}

func (f *delayFact) String() string { return "returns a delay: " + f.Kind.String() }

// waiterFact marks an exported function that returns a function that waits when called, as a
// retry library's strategy does (Rican7/retry's strategy.Backoff(algorithm) returns a
// func(attempt uint) bool that sleeps algorithm(attempt)): a loop that calls the result between
// attempts waits, in the way Kind says.
type waiterFact struct {
	Kind WaitKind
}

func (*waiterFact) AFact() {}

func (f *waiterFact) String() string { return "returns a waiter: " + f.Kind.String() }

// iteratorFact marks a function that returns a retry iterator: ranging over its result runs
// the loop body once per attempt (see Iterator).
type iteratorFact struct {
	Attempts Bound
	Wait     WaitKind
	Deadline DeadlineKind
}

func (*iteratorFact) AFact() {}

func (f *iteratorFact) String() string {
	return fmt.Sprintf("retry iterator: attempts=%s wait=%s deadline=%s", f.Attempts, f.Wait, f.Deadline)
}

// frameworkFact marks a function that a framework runs again when it fails (an activity, a
// message handler, a reconciler), as its own package found: a package that registers it
// leaves it to that package.
type frameworkFact struct {
	Framework string
	Kind      Kind
}

func (*frameworkFact) AFact() {}

func (f *frameworkFact) String() string {
	return fmt.Sprintf("run again by %s as a %s", f.Framework, f.Kind)
}

// tableClient reports whether fn sends through a client of the libraries table, whose
// entries say when that client retries.
func tableClient(fn *types.Func) bool {
	id := flow.ID(fn)
	for _, lib := range libraries {
		if len(lib.Clients) > 0 && lib.has(id.Pkg) && matchEntry(lib.Clients, id) != nil {
			return true
		}
	}
	return false
}

// exportRetries exports a retriesFact for every function of the package that retries,
// directly or through the functions it calls.
func (st *state) exportRetries() {
	retries := make(map[*ssa.Function]*retriesFact)
	inner := st.res.reaches
	// What other packages' functions called here retry (Result.Reached).
	for _, fn := range st.funcs {
		for call := range flow.Calls(fn) {
			if fw, _, _ := frameworkCall(call); fw != nil {
				// Pub/Sub's Receive reconnecting its stream, a worker's Run: the framework's
				// own loop, which delivers and retries deliveries, not a request retried.
				continue
			}
			if obj := flow.Callee(call.Common()); obj != nil && obj.Pkg() != nil && obj.Pkg() != st.pass.Pkg {
				if tableClient(obj) {
					// resty's Request.Get: the table says when its client retries (a retry
					// count set), not the loop its package holds for when it does.
					continue
				}
				var f retriesFact
				if !st.pass.ImportObjectFact(obj, &f) {
					continue
				}
				if call.Common().IsInvoke() && st.implementsHere(call.Common().Value.Type(), testcode.At(st.pass, call.Pos())) {
					continue // the interface's value may be this package's own implementation
				}
				st.res.imported[call] = &f
			}
		}
	}
	if knowledge.InternalRetries(st.pass.Pkg.Path()) {
		// gRPC's transparent retries, the Google API's chunk retries: no layer of the caller's.
		st.res.retries = retries
		return
	}
	for _, s := range st.res.Scopes {
		if g, started := s.Site.(*ssa.Go); started && !flow.Awaited(g) || s.Kind.FromFramework() || s.Poll || s.Handed || st.detached(s.at) {
			continue // a goroutine's retries are not its starter's (unless it waits for them);
			// the framework retries, not the function holding the scope; a poll waits
		}
		at := flow.Root(s.at)
		if retries[at] == nil || retries[at].Local && s.Reach != remote.ReachLocal {
			f := &retriesFact{Attempts: s.Attempts, Where: st.where(s), Local: s.Reach == remote.ReachLocal, On: s.RetrySet(), Only: s.retriedSentinels(), Named: s.NamedSet(), SwitchedOff: s.SwitchedOff}
			if fv := s.Attempts.Field(); fv != nil {
				if setters, zero := st.zeroDefault(fv); zero {
					f.Setting, f.Setters = s.Attempts.Setting, setters
				}
			}
			if s.Kind == Recursion {
				f.setCount(recursionCount(s.Fn))
			}
			f.UntilCtx = untilParam(s)
			retries[at] = f
			inner[at] = s
		}
	}
	// Through calls, until nothing changes. Which functions run detached, and which go
	// statements are not waited for, is worked out once, not on every round.
	detached := make(map[*ssa.Function]bool, len(st.funcs))
	apart := make(map[*ssa.Go]bool)
	for _, fn := range st.funcs {
		detached[fn] = st.detached(fn)
		for call := range flow.Calls(fn) {
			if g, ok := call.(*ssa.Go); ok {
				apart[g] = !flow.Awaited(g)
			}
		}
	}
	for range 8 {
		changed := false
		for _, fn := range st.funcs {
			r := flow.Root(fn)
			settled := func() bool { return retries[r] != nil && !retries[r].Kept }
			if settled() || detached[fn] {
				continue
			}
			for call := range flow.Calls(fn) {
				if g, ok := call.(*ssa.Go); ok && apart[g] || settled() {
					continue // a goroutine started here and not waited for retries on its own
				}
				var f retriesFact
				callee := call.Common().StaticCallee()
				switch {
				case callee != nil && retries[callee] != nil:
					f = *retries[callee]
					f.Via = callee.Name()
				case st.res.imported[call] != nil:
					f = *st.res.imported[call]
					f.Via = flow.Callee(call.Common()).Name()
				default:
					continue
				}
				if f.UntilCtx > 0 {
					f.UntilCtx = handedCtx(call, f.UntilCtx-1, r)
				}
				if f.HasCount {
					n, known, h, passed := handedAt(call, f.count())
					if known && n <= 0 {
						continue // MakeRequest(ctx, FullRequest{MaxAttempts: 1}): no retry from here
					}
					if known {
						f.Attempts = Bound{Kind: BoundConst, N: int(n) + 1}
					}
					f.setCount(h, passed && call.Parent() == r && h.Param >= 0)
				}
				// A call whose failure the function logs and drops keeps it: a retry around
				// the function does not repeat this one's attempts (a failure that comes
				// back, from another call, is preferred).
				f.Kept = f.Kept || !failureReturns(call)
				if retries[r] != nil && f.Kept {
					continue
				}
				retries[r] = &f
				if callee != nil && !f.Kept {
					inner[r] = inner[callee]
				} else {
					delete(inner, r)
				}
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	st.res.retries = retries
	for fn, f := range retries {
		if obj, ok := fn.Object().(*types.Func); ok && obj.Pkg() == st.pass.Pkg {
			st.pass.ExportObjectFact(obj, f)
		}
	}
	st.exportInterfaceRetries(retries)
}

// exportInterfaceRetries exports, for a method of an interface the package declares and
// implements with one type of its own (outside tests), which it puts behind the interface
// itself (flow.Implementers.Fills), the retriesFact of that type's method:
// another package calling the method through the interface (an SDK's TransactionsService in
// its client's Entity field) runs it. A count or context handed in is the implementation's
// parameter, not the call's: those are left out.
func (st *state) exportInterfaceRetries(retries map[*ssa.Function]*retriesFact) {
	if st.ssaPkg == nil || len(retries) == 0 {
		return // (the standard library is not built)
	}
	im := st.implementers()
	done := make(map[*types.Func]bool)
	scope := st.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || !tn.Exported() || tn.IsAlias() || testcode.At(st.pass, tn.Pos()) {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok || named.TypeParams().Len() > 0 {
			continue
		}
		iface, ok := named.Underlying().(*types.Interface)
		if !ok {
			continue
		}
		for m := range iface.Methods() {
			if m.Pkg() != st.pass.Pkg || done[m] {
				continue
			}
			done[m] = true
			impl := flow.Sole(im.Method(named, m), func(fn *ssa.Function) bool { return testcode.At(st.pass, fn.Pos()) })
			if impl == nil || retries[impl] == nil || decorates(impl, named) || !st.stores.Fills(named, impl) {
				continue
			}
			f := *retries[impl]
			f.HasCount, f.UntilCtx = false, 0
			if f.Via == "" {
				f.Via = impl.Name()
			}
			st.pass.ExportObjectFact(m, &f)
		}
	}
}

// implementsHere reports whether a named type of this package implements the interface t (a
// test's fake only for a call in a test).
func (st *state) implementsHere(t types.Type, inTest bool) bool {
	iface, ok := t.Underlying().(*types.Interface)
	if !ok {
		return false
	}
	scope := st.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) || !inTest && testcode.At(st.pass, tn.Pos()) {
			continue
		}
		if types.Implements(tn.Type(), iface) || types.Implements(types.NewPointer(tn.Type()), iface) {
			return true
		}
	}
	return false
}

// decorates reports whether method fn's receiver type holds a field of interface type named: a
// layer over other implementations (a retrying decorator around a connection), which the
// package does not see all of.
func decorates(fn *ssa.Function, named *types.Named) bool {
	recv := fn.Signature.Recv()
	return recv != nil && typeis.AnyField(recv.Type(), func(f *types.Var) bool { return types.Identical(f.Type(), named) })
}

// zeroDefault reports whether the package leaves field fv at zero unless told otherwise: it
// never stores a non-zero constant there. It returns the functions that store another value
// there (an option, a setter), by full name.
//
// A field of another package (an SDK's profile, read by its client package) is judged by its
// own package's stores (zeroFieldFact) and this package's.
func (st *state) zeroDefault(fv *types.Var) (setters []string, zero bool) {
	if fv.Pkg() != st.pass.Pkg {
		var f zeroFieldFact
		if fv.Pkg() == nil || !st.pass.ImportObjectFact(fv, &f) {
			return nil, false
		}
		setters = slices.Clone(f.Setters)
	}
	for _, v := range st.stores.Fields[fv] {
		if k, ok := v.(*ssa.Const); ok {
			if n, isInt := flow.IntConst(k); !isInt || n != 0 {
				return nil, false
			}
			continue
		}
		if instr, ok := v.(ssa.Instruction); ok && instr.Parent() != nil {
			setters = append(setters, setterName(instr.Parent()))
		} else if p, ok := v.(*ssa.Parameter); ok {
			setters = append(setters, setterName(p.Parent()))
		}
	}
	return setters, true
}

// zeroFieldFact marks an exported int field of an exported struct type that its package
// leaves at zero unless told otherwise (zeroDefault), with the functions of its package that
// store a value they are given there: a setting that a client of another package may read as
// its number of retries.
type zeroFieldFact struct{ Setters []string }

func (*zeroFieldFact) AFact() {}

func (f *zeroFieldFact) String() string { return fmt.Sprintf("zero by default, set by %v", f.Setters) }

// exportZeroFields exports a zeroFieldFact for the exported int fields of the package's
// exported struct types that it leaves at zero (counts of retries are ints; other widths
// hold sizes, amounts and sequence numbers, whose facts would only weigh on every importer).
func (st *state) exportZeroFields() {
	scope := st.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || !tn.Exported() || tn.IsAlias() {
			continue
		}
		str, ok := tn.Type().Underlying().(*types.Struct)
		if !ok {
			continue
		}
		for fv := range str.Fields() {
			if !fv.Exported() || fv.Embedded() || fv.Pkg() != st.pass.Pkg || !types.Identical(fv.Type(), types.Typ[types.Int]) {
				continue
			}
			if setters, zero := st.zeroDefault(fv); zero {
				st.pass.ExportObjectFact(fv, &zeroFieldFact{Setters: setters})
			}
		}
	}
}

// setterName names the function declaring fn (the option whose closure stores the value).
func setterName(fn *ssa.Function) string {
	fn = flow.Root(fn)
	if obj, ok := fn.Object().(*types.Func); ok {
		return funcKey(flow.ID(obj))
	}
	return fn.String()
}

// funcKey writes a function's identity as facts keep it: "pkg/path.Func", "pkg/path.T.Method".
func funcKey(id flow.FuncID) string {
	if id.Recv != "" {
		return id.Pkg + "." + id.Recv + "." + id.Name
	}
	return id.Pkg + "." + id.Name
}

// Configures reports whether this package sets the setting a retriesFact depends on: it
// stores into that field, or calls one of its setters.
func (r *Result) Configures(f *retriesFact) bool {
	if f.Setting == "" {
		return true
	}
	return r.sets[f.Setting] || slices.ContainsFunc(f.Setters, func(s string) bool { return r.calls[s] })
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

// exportWaits exports a waitsFact for every exported function of the package that waits
// (other packages cannot call the others).
func (st *state) exportWaits() {
	for _, fn := range st.funcs {
		if obj, ok := fn.Object().(*types.Func); ok && obj.Pkg() == st.pass.Pkg && obj.Exported() {
			if w := st.funcWaits(fn, 0); w != nil {
				st.pass.ExportObjectFact(obj, w)
			}
			if w := st.returnedWaiter(fn); w != nil {
				st.pass.ExportObjectFact(obj, &waiterFact{Kind: w.Kind})
			}
			if res := fn.Signature.Results(); res.Len() > 0 && typeis.Duration(res.At(0).Type()) && len(fn.Blocks) > 0 {
				if r, fromParams := returnedDelay(fn, 0, st); r.kind != WaitUnknown {
					f := &delayFact{Kind: r.kind, FromParams: fromParams}
					if r.switchOn != nil && r.switchOn.Pkg() != nil && r.switchOn.Exported() {
						// Only a field users set themselves: the library's own methods might set
						// an unexported one, which the fact cannot show.
						f.JitterField, f.JitterPkg, f.Plain = r.switchOn.Name(), r.switchOn.Pkg().Path(), r.plain
					}
					st.pass.ExportObjectFact(obj, f)
				}
			}
		}
	}
}

// returnedWaiter says how the function fn returns waits when it is called, when fn returns
// (as its only result) a function of the package or a closure that waits; nil otherwise.
func (st *state) returnedWaiter(fn *ssa.Function) *waitsFact {
	return st.returnedWaiterAt(fn, 0)
}

func (st *state) returnedWaiterAt(fn *ssa.Function, depth int) *waitsFact {
	if fn.Signature.Results().Len() != 1 || depth > 2 {
		return nil
	}
	sig, ok := fn.Signature.Results().At(0).Type().Underlying().(*types.Signature)
	if !ok {
		return nil
	}
	for p := range sig.Params().Variables() {
		if _, ok := p.Type().Underlying().(*types.Signature); ok {
			return nil // an iterator, called with the loop's body (iteratorFact)
		}
	}
	var w *waitsFact
	for ret := range flow.Returns(fn) {
		var f *ssa.Function
		var fw *waitsFact
		switch r := flow.Unwrap(ret.Results[0]).(type) {
		case *ssa.MakeClosure:
			f, _ = r.Fn.(*ssa.Function)
		case *ssa.Function:
			f = r
		case *ssa.Call:
			// return BackoffWithJitter(algorithm, noJitter()): what that function returns.
			if g := r.Call.StaticCallee(); g != nil && g.Pkg == st.ssaPkg && len(g.Blocks) > 0 && g != fn {
				fw = st.returnedWaiterAt(g, depth+1)
			}
		}
		if f != nil && f.Pkg == st.ssaPkg && len(f.Blocks) > 0 {
			fw = st.funcWaits(f, 0)
		}
		if fw == nil || w != nil && w.Kind != fw.Kind {
			return nil
		}
		w = fw
	}
	return w
}

// failureReturns reports whether a failure of call can come back from the function that
// makes it: some return reached from the call's failure gives its caller an error, or a
// result other than an error. A function with no results, or one that returns a nil error on
// every way from the failure (if err := t.Notify(); err != nil { log(err) }; return nil),
// keeps the failure to itself, and a retry around its caller does not repeat the call's.
func failureReturns(call ssa.CallInstruction) bool {
	fn := call.Parent()
	if fn.Parent() != nil {
		return true // a closure: what its caller does with the result is not seen here
	}
	results := fn.Signature.Results()
	if results.Len() == 0 {
		return false
	}
	last := results.Len() - 1
	if !typeis.ErrorLike(results.At(last).Type()) {
		return true // a bool, a value: it may say the failure
	}
	if call.Value() == nil {
		return true // go, defer
	}
	// The failure side of the call's error test, when there is one.
	from := call.Block()
	errv := errorOf(call)
	if errv == nil || !typeis.ErrorLike(errv.Type()) {
		return errv != nil // no error result: a value that may say it; or all dropped
	}
	for _, r := range *errv.Referrers() {
		cmp, ok := r.(*ssa.BinOp)
		if !ok || cmp.Op != token.NEQ && cmp.Op != token.EQL || !flow.IsNil(cmp.X) && !flow.IsNil(cmp.Y) {
			continue
		}
		for _, u := range *cmp.Referrers() {
			if ifInstr, ok := u.(*ssa.If); ok {
				if cmp.Op == token.NEQ {
					from = ifInstr.Block().Succs[0]
				} else {
					from = ifInstr.Block().Succs[1]
				}
			}
		}
	}
	for b := range flow.Forward([]*ssa.BasicBlock{from}, func(_, _ *ssa.BasicBlock) bool { return true }) {
		ret, ok := lastInstr(b).(*ssa.Return)
		if !ok || len(ret.Results) <= last {
			continue
		}
		if !flow.IsNil(ret.Results[last]) {
			return true
		}
	}
	return false
}
