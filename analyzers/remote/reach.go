package remote

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ssapkg"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// Reach says whether a call may leave the process, itself or through what it calls: the
// question behind "a retry protects a remote dependency" (a loop that retries a local lock
// file, a local net.Listen or an OS call is not the herd that jitter and a single retry layer
// protect against).
type Reach uint8

const (
	// ReachLocal: the call stays in the process (or on this machine's file system and kernel):
	// no remote call is reached through statically known callees.
	ReachLocal Reach = iota
	// ReachUnknown: a dynamic call (an interface method of a package outside the standard
	// library, a function value) is reached, whose target may leave the process.
	ReachUnknown
	// ReachRemote: a remote call is reached.
	ReachRemote
)

func (r Reach) String() string {
	switch r {
	case ReachRemote:
		return "remote"
	case ReachUnknown:
		return "unknown"
	}
	return "local"
}

// reachFact marks an exported function or method that may leave the process (ReachRemote),
// or calls something dynamic that may (Unknown); a function without one stays local.
type reachFact struct {
	Unknown bool
}

func (*reachFact) AFact() {}

func (f *reachFact) String() string {
	if f.Unknown {
		return "may reach a remote call"
	}
	return "reaches a remote call"
}

// stdRemote are functions and methods of the standard library, other than the remote calls
// the rules know, that talk to another machine: name resolution, mail, RPC, and I/O on a
// connection.
var stdRemote = map[flow.FuncID]bool{
	{Pkg: "net", Name: "LookupHost"}: true, {Pkg: "net", Name: "LookupIP"}: true,
	{Pkg: "net", Name: "LookupAddr"}: true, {Pkg: "net", Name: "LookupCNAME"}: true,
	{Pkg: "net", Name: "LookupMX"}: true, {Pkg: "net", Name: "LookupTXT"}: true,
	{Pkg: "net", Name: "LookupSRV"}: true, {Pkg: "net", Name: "LookupNS"}: true,
	{Pkg: "net", Name: "LookupPort"}:    true,
	{Pkg: "net/smtp", Name: "SendMail"}: true, {Pkg: "net/smtp", Name: "Dial"}: true,
	{Pkg: "net/rpc", Name: "Dial"}: true, {Pkg: "net/rpc", Name: "DialHTTP"}: true,
	{Pkg: "net/rpc", Recv: "Client", Name: "Call"}:          true,
	{Pkg: "net/http", Recv: "Transport", Name: "RoundTrip"}: true,
}

// networkArgs are the dial functions of the standard library by the index of their network
// argument (receiver excluded): one that dials "unix" stays on this machine.
var networkArgs = map[flow.FuncID]int{
	{Pkg: "net", Name: "Dial"}: 0, {Pkg: "net", Name: "DialTimeout"}: 0,
	{Pkg: "net", Recv: "Dialer", Name: "Dial"}: 0, {Pkg: "net", Recv: "Dialer", Name: "DialContext"}: 1,
	{Pkg: "crypto/tls", Name: "Dial"}: 0, {Pkg: "crypto/tls", Name: "DialWithDialer"}: 1,
	{Pkg: "net/rpc", Name: "Dial"}: 0, {Pkg: "net/rpc", Name: "DialHTTP"}: 0, {Pkg: "net/rpc", Name: "DialHTTPPath"}: 0,
}

// unixDial says whether c, a call of fn, is one of the standard library's dials (networkArgs),
// and whether it dials a constant Unix-socket network ("unix", "unixpacket").
func unixDial(c *ssa.CallCommon, fn *types.Func) (dial, unix bool) {
	i, ok := networkArgs[flow.ID(fn)]
	if !ok {
		return false, false
	}
	n, isConst := flow.StringConst(flow.NewSite(c, fn).Arg(i))
	return true, isConst && strings.HasPrefix(n, "unix")
}

// stdRemoteRecv are standard library types all of whose methods talk to another machine (or
// read and write a connection to one).
var stdRemoteRecv = map[[2]string]bool{
	{"net", "Resolver"}: true, {"net", "Conn"}: true, {"net", "TCPConn"}: true,
	{"crypto/tls", "Conn"}: true, {"net/smtp", "Client"}: true, {"net/rpc", "Client"}: true,
	{"net/http", "RoundTripper"}: true,
	{"database/sql", "DB"}:       true, {"database/sql", "Conn"}: true, {"database/sql", "Tx"}: true,
	{"database/sql", "Stmt"}: true, {"database/sql", "Rows"}: true, {"database/sql", "Row"}: true,
}

// stdLocalMethod reports whether id, a method of a type of stdRemoteRecv, reads the row a
// database/sql Rows holds (Scan: Next is what fetches), on this machine.
func stdLocalMethod(id flow.FuncID) bool {
	return id.Pkg == "database/sql" && id.Recv == "Rows" && rowsLocal[id.Name]
}

var rowsLocal = map[string]bool{"Scan": true, "Columns": true, "ColumnTypes": true, "Err": true}

// reacher computes Reach for the functions of a package.
//
// A remote call counts however deep it is. A dynamic call the model cannot resolve (an
// interface method of a package outside the standard library, a function value) counts only
// when it can fail (a remote call reports its failure: its last result is an error) and only
// near the attempt: in the function the attempt calls, or in one that function calls in the
// same package. Deeper, an unseen call is a label builder's or a logger's as often as a
// transport's, and "may reach" would spread to every function of a package that has one.
type reacher struct {
	pass     *analysis.Pass
	pkg      *ssa.Package
	remote   map[ssa.CallInstruction]bool // the package's remote calls
	of       map[*ssa.Function]Reach
	dynamic  map[*ssa.Function]bool // makes an unresolved fallible dynamic call itself
	imported map[*types.Func]*reachFact
	impls    *flow.Implementers
	stores   *flow.Stores // values the package stores into struct fields
	pkgFuncs []*ssa.Function
	handoff  handoff // the channels of struct fields the package sends requests on and receives from
}

// compute works out which functions of the package may leave the process: remote ones to a
// fixed point over static calls, then the unknown ones (see reacher); and exports the facts
// of the exported ones.
func (r *reacher) compute(funcs []*ssa.Function) {
	r.of = make(map[*ssa.Function]Reach, len(funcs))
	r.dynamic = make(map[*ssa.Function]bool)
	r.pkgFuncs = funcs
	r.indexHandoffs()
	for changed := true; changed; {
		changed = false
		for _, fn := range funcs {
			if r.of[fn] == ReachRemote {
				continue
			}
			for call := range attemptCalls(fn) {
				if r.call(call) == ReachRemote {
					r.of[fn] = ReachRemote
					changed = true
					break
				}
			}
		}
		changed = r.handsOff() || changed
	}
	for _, fn := range funcs {
		for call := range attemptCalls(fn) {
			if r.unresolved(call) {
				r.dynamic[fn] = true
				break
			}
		}
	}
	// A function that hands such a callback to another package's helper (fetch running its
	// closure, which calls an interface, through backoff.Retry) makes that call itself: the
	// callback is its own code.
	var hands []*ssa.Function
	for _, fn := range funcs {
		if !r.dynamic[fn] && r.handsDynamic(fn) {
			hands = append(hands, fn)
		}
	}
	for _, fn := range hands {
		r.dynamic[fn] = true
	}
	exported := make(map[*ssa.Function]bool) // unknown by this package's own dynamic calls
	for _, fn := range funcs {
		if r.of[fn] == ReachRemote {
			continue
		}
		for call := range attemptCalls(fn) {
			own := r.dynamic[fn]
			for _, t := range r.targets(call.Common()) {
				own = own || t.Pkg == r.pkg && r.dynamic[t]
			}
			if own {
				r.of[fn], exported[fn] = ReachUnknown, true
				break
			}
			if r.importedUnknown(call.Common()) {
				r.of[fn] = ReachUnknown
			}
		}
	}
	for _, fn := range funcs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || !obj.Exported() || fn.Synthetic != "" || r.of[fn] == ReachLocal ||
			r.of[fn] == ReachUnknown && !exported[fn] {
			continue
		}
		r.pass.ExportObjectFact(obj, &reachFact{Unknown: r.of[fn] == ReachUnknown})
	}
	r.exportConcrete(funcs)
}

// handsDynamic reports whether fn hands a closure of its own that makes an unresolved
// fallible dynamic call (r.dynamic) to a function of another package, which runs it.
func (r *reacher) handsDynamic(fn *ssa.Function) bool {
	for call := range attemptCalls(fn) {
		callee := call.Common().StaticCallee()
		if callee == nil || callee.Pkg == r.pkg {
			continue
		}
		for _, arg := range call.Common().Args {
			if mc, ok := flow.Unwrap(arg).(*ssa.MakeClosure); ok {
				if f, ok := mc.Fn.(*ssa.Function); ok && f.Parent() == fn && r.dynamic[f] {
					return true
				}
			}
		}
	}
	return false
}

// attemptCalls yields the calls of fn that hold it up: not the ones started in a goroutine,
// unless fn waits for the goroutine (flow.Awaited: its answer, as a request run in the
// background to be timed out is).
func attemptCalls(fn *ssa.Function) func(func(ssa.CallInstruction) bool) {
	return func(yield func(ssa.CallInstruction) bool) {
		for call := range flow.Calls(fn) {
			if g, started := call.(*ssa.Go); started && !flow.Awaited(g) {
				continue // a goroutine's calls do not hold up the caller
			}
			if !yield(call) {
				return
			}
		}
	}
}

// call says whether call may leave the process: what it calls, and the functions of this
// package it is handed (a callback runs inside the call).
func (r *reacher) call(call ssa.CallInstruction) Reach {
	reach := r.callee(call)
	for _, arg := range call.Common().Args {
		if reach == ReachRemote {
			break
		}
		if _, isFunc := arg.Type().Underlying().(*types.Signature); !isFunc {
			continue
		}
		for _, t := range r.funcs(arg) {
			reach = max(reach, r.of[t])
		}
		if r.unseenCallback(arg) {
			reach = max(reach, ReachUnknown)
		}
	}
	return reach
}

// unseenCallback reports whether arg is a function value that can fail and that is made
// nowhere in view: a callback from elsewhere (a field, a map, a parameter).
func (r *reacher) unseenCallback(arg ssa.Value) bool {
	sig, isFunc := arg.Type().Underlying().(*types.Signature)
	return isFunc && typeis.ReturnsError(sig) && r.funcs(arg) == nil
}

// callee says whether what call calls may leave the process.
func (r *reacher) callee(call ssa.CallInstruction) Reach {
	if r.remote[call] {
		return ReachRemote
	}
	c := call.Common()
	if targets := r.targets(c); targets != nil {
		reach := ReachLocal
		for _, t := range targets {
			reach = max(reach, r.of[t])
		}
		return reach
	}
	fn := flow.Callee(c)
	if fn == nil {
		if _, builtin := c.Value.(*ssa.Builtin); builtin || !handedIn(c.Value) && !typeis.ReturnsError(c.Signature()) {
			return ReachLocal
		}
		if g := flow.LoadedGlobal(c.Value); g != nil && g.Pkg == r.pkg && r.stores != nil && len(r.stores.Globals[g]) == 0 && !r.stores.Taken[g] {
			// if DiscoverFunc != nil { return DiscoverFunc(cidrs) }: a hook the package leaves
			// nil, which only others (its tests) set; the package's own way is what runs.
			return ReachLocal
		}
		if reach, ok := r.storedReach(c); ok {
			return reach
		}
		if reach, ok := r.tableReach(c); ok {
			return reach
		}
		if p, ok := flow.Unwrap(c.Value).(*ssa.Parameter); ok {
			if reach, ok := r.paramReach(p); ok {
				return reach
			}
		}
		return ReachUnknown // a callback the caller hands in, or a function value that can fail
	}
	if c.IsInvoke() && fn.Pkg() != nil && typeis.ReturnsError(c.Signature()) && !ssapkg.IsStdPath(fn.Pkg().Path()) {
		if reach, known := r.wiredReach(c); known {
			return reach
		}
	}
	return r.funcReach(c, fn)
}

// tableReach says whether the function value c calls, looked up in a table of functions that
// code out of view may also fill (an exported variable), may leave the process: at least what
// the entries in view reach, and unknown beyond them. ok is false when no entry is in view.
func (r *reacher) tableReach(c *ssa.CallCommon) (reach Reach, ok bool) {
	v := flow.Unwrap(c.Value)
	if ta, isAssert := v.(*ssa.TypeAssert); isAssert {
		v = ta.X
	}
	lk, isLookup := v.(*ssa.Lookup)
	if !isLookup || r.stores == nil {
		return 0, false
	}
	entries, _ := r.stores.MapEntries(lk.X, lk.Index)
	if len(entries) == 0 {
		return 0, false
	}
	reach = ReachUnknown // (incomplete: funcs resolves a complete table)
	for _, e := range entries {
		for _, f := range r.funcs(e) {
			reach = max(reach, r.of[f])
		}
	}
	return reach, true
}

// paramReach says whether the function that parameter p holds may leave the process, when p's
// function is one no other package can call (unexported, not a method) and that this package
// only calls, never hands on as a value: the most any of its callers' arguments for p may
// reach (retryFileOp(func() error { return os.Remove(path) }) stays in the process). ok is
// false when a caller's argument is not a function the model can see.
func (r *reacher) paramReach(p *ssa.Parameter) (reach Reach, ok bool) {
	fn := p.Parent()
	idx := slices.Index(fn.Params, p)
	calls := r.handedArgs(fn)
	if idx < 0 || len(calls) == 0 {
		return 0, false
	}
	reach = ReachLocal
	for _, args := range calls {
		if idx >= len(args) {
			return 0, false
		}
		ts := r.funcs(args[idx])
		if ts == nil {
			return 0, false
		}
		for _, t := range ts {
			reach = max(reach, r.of[t])
		}
	}
	return reach, true
}

// handedArgs returns the arguments of each call of fn in the package, when fn is a function
// (not a method) that no other package can name and that the package uses only by calling
// it; nil otherwise.
func (r *reacher) handedArgs(fn *ssa.Function) [][]ssa.Value {
	obj, ok := fn.Object().(*types.Func)
	if !ok || obj.Exported() || fn.Signature.Recv() != nil || r.stores.AsValue[fn] {
		return nil // (handed on as a value: whoever holds it may call it)
	}
	var calls [][]ssa.Value
	for _, c := range r.stores.Calls[fn] {
		calls = append(calls, c.Common().Args)
	}
	return calls
}

// storedReach says whether the function value c calls may leave the process, when it is
// loaded from an unexported field of this package into which the package stores only functions
// and closures (bp.alloc = mmap.Alloc, or a func literal): no other package can put another
// there. ok is false otherwise.
func (r *reacher) storedReach(c *ssa.CallCommon) (reach Reach, ok bool) {
	fv := flow.OwnField(c.Value, r.pass.Pkg)
	if fv == nil || r.stores == nil || len(r.stores.Fields[fv]) == 0 {
		return 0, false
	}
	reach, defaults := ReachLocal, 0
	for _, x := range r.stores.Fields[fv] {
		if callerGiven(x) {
			// db.openFile = options.OpenFile; if db.openFile == nil { db.openFile =
			// os.OpenFile }: the caller's function when it gives one; the package's default,
			// below, is what most callers run.
			continue
		}
		if flow.IsZero(x) {
			continue // db.ops.writeAt = nil when closed: nothing is called
		}
		defaults++
		if obj, other := r.otherFunc(x); other {
			if obj == nil {
				return 0, false
			}
			reach = max(reach, r.funcReach(c, obj))
			continue
		}
		fns := r.funcs(x)
		if fns == nil {
			return 0, false
		}
		for _, f := range fns {
			reach = max(reach, r.of[f])
		}
	}
	return reach, defaults > 0
}

// otherFunc reports whether x is a function of another package, or a method value of one
// (db.ops.writeAt = db.file.WriteAt), and returns it (nil when it has no object).
func (r *reacher) otherFunc(x ssa.Value) (*types.Func, bool) {
	f, isFunc := flow.Unwrap(x).(*ssa.Function)
	if mc, isClosure := flow.Unwrap(x).(*ssa.MakeClosure); isClosure {
		if fn, ok := mc.Fn.(*ssa.Function); ok && fn.Synthetic != "" {
			if obj, ok := fn.Object().(*types.Func); ok && obj.Pkg() != r.pass.Pkg {
				return obj, true // a method value's wrapper
			}
		}
	}
	if !isFunc || f.Pkg == r.pkg {
		return nil, false
	}
	obj, _ := f.Object().(*types.Func)
	return obj, true
}

// callerGiven reports whether x is a field of options a caller gives (flow.Given), or that
// default when the caller gives none (if options == nil { options = DefaultOptions }).
func callerGiven(x ssa.Value) bool {
	given := func(v ssa.Value) bool {
		if phi, ok := v.(*ssa.Phi); ok {
			return slices.ContainsFunc(phi.Edges, flow.Given)
		}
		return flow.Given(v)
	}
	switch x := flow.Unwrap(x).(type) {
	case *ssa.UnOp:
		fa, ok := x.X.(*ssa.FieldAddr)
		return ok && x.Op == token.MUL && given(fa.X)
	case *ssa.Field:
		return given(x.X)
	}
	return false
}

// funcReach says whether fn, called by c (an interface method's call, when fn is a concrete
// type's method that the program shows the interface holds), may leave the process.
func (r *reacher) funcReach(c *ssa.CallCommon, fn *types.Func) Reach {
	if fn.Pkg() == nil {
		return ReachLocal // a method of error or another universe type
	}
	if knowledge.RegistryCall(fn.Pkg().Path(), fn.Name()) {
		return ReachRemote // the daemon pulls from, or pushes to, a registry
	}
	if knowledge.LocalDaemon(fn.Pkg().Path()) {
		return ReachLocal // the Docker daemon of this machine
	}
	id := flow.ID(fn)
	if dial, unix := unixDial(c, fn); dial && unix {
		return ReachLocal // a Unix domain socket: a process on this machine
	}
	if _, ok := rules[id]; ok || stdRemote[id] || stdRemoteRecv[[2]string{id.Pkg, id.Recv}] && !stdLocalMethod(id) {
		return ReachRemote
	}
	if _, ok := grpcCall(fn); ok || sdkCall(fn) {
		return ReachRemote
	}
	if _, ok := connectCall(fn); ok {
		return ReachRemote
	}
	if ssapkg.IsStdPath(fn.Pkg().Path()) {
		return ReachLocal
	}
	if recv := fn.Type().(*types.Signature).Recv(); recv != nil && types.IsInterface(recv.Type()) {
		if !typeis.ReturnsError(c.Signature()) {
			return ReachLocal
		}
		return ReachUnknown // an interface method that can fail: the implementation decides
	}
	f := importFact(r.pass, r.imported, fn)
	switch {
	case f == nil:
		return ReachLocal
	case f.Unknown:
		return ReachUnknown
	}
	return ReachRemote
}

// Reach says whether call may leave the process, itself or through the functions it calls.
func (res *Result) Reach(call ssa.CallInstruction) Reach {
	if res == nil || res.reach == nil {
		return ReachUnknown
	}
	return res.reach.call(call)
}

// MayLeave reports whether any of calls may leave the process (Reach is not ReachLocal).
func (res *Result) MayLeave(calls []ssa.CallInstruction) bool {
	for _, c := range calls {
		if res.Reach(c) != ReachLocal {
			return true
		}
	}
	return false
}
