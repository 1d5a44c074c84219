package remote

import (
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/ssapkg"
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

// ReachFact marks an exported function or method that may leave the process (ReachRemote),
// or calls something dynamic that may (Unknown); a function without one stays local.
type ReachFact struct {
	Unknown bool
}

func (*ReachFact) AFact() {}

func (f *ReachFact) String() string {
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

// stdRemoteRecv are standard library types all of whose methods talk to another machine (or
// read and write a connection to one).
var stdRemoteRecv = map[[2]string]bool{
	{"net", "Resolver"}: true, {"net", "Conn"}: true, {"net", "TCPConn"}: true,
	{"crypto/tls", "Conn"}: true, {"net/smtp", "Client"}: true, {"net/rpc", "Client"}: true,
	{"net/http", "RoundTripper"}: true,
	{"database/sql", "DB"}:       true, {"database/sql", "Conn"}: true, {"database/sql", "Tx"}: true,
	{"database/sql", "Stmt"}: true, {"database/sql", "Rows"}: true, {"database/sql", "Row"}: true,
}

// reacher computes Reach for the functions of a package.
type reacher struct {
	pass     *analysis.Pass
	pkg      *ssa.Package
	remote   map[ssa.CallInstruction]bool // the package's remote calls
	of       map[*ssa.Function]Reach
	imported map[*types.Func]*ReachFact
}

// compute works out, to a fixed point, which functions of the package may leave the
// process, and exports the facts of the exported ones.
func (r *reacher) compute(funcs []*ssa.Function) {
	r.of = make(map[*ssa.Function]Reach, len(funcs))
	for changed := true; changed; {
		changed = false
		for _, fn := range funcs {
			if r.of[fn] == ReachRemote {
				continue
			}
			reach := ReachLocal
			for call := range flow.Calls(fn) {
				if _, started := call.(*ssa.Go); started {
					continue // a goroutine's calls do not hold up the caller
				}
				reach = max(reach, r.call(call))
				if reach == ReachRemote {
					break
				}
			}
			if reach > r.of[fn] {
				r.of[fn] = reach
				changed = true
			}
		}
	}
	for _, fn := range funcs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || !obj.Exported() || fn.Synthetic != "" || r.of[fn] == ReachLocal {
			continue
		}
		r.pass.ExportObjectFact(obj, &ReachFact{Unknown: r.of[fn] == ReachUnknown})
	}
}

// call says whether call may leave the process.
func (r *reacher) call(call ssa.CallInstruction) Reach {
	if r.remote[call] {
		return ReachRemote
	}
	c := call.Common()
	if callee := c.StaticCallee(); callee != nil {
		if callee.Pkg == nil && callee.Origin() != nil {
			callee = callee.Origin()
		}
		if callee.Pkg == r.pkg {
			return r.of[callee]
		}
	}
	fn := flow.Callee(c)
	if fn == nil {
		if _, builtin := c.Value.(*ssa.Builtin); builtin {
			return ReachLocal
		}
		return ReachUnknown // a function value
	}
	if fn.Pkg() == nil {
		return ReachLocal // a method of error or another universe type
	}
	id := flow.ID(fn)
	if _, ok := rules[id]; ok || stdRemote[id] || stdRemoteRecv[[2]string{id.Pkg, id.Recv}] {
		return ReachRemote
	}
	if _, ok := grpcCall(fn); ok || sdkCall(fn) {
		return ReachRemote
	}
	if ssapkg.IsStdPath(fn.Pkg().Path()) {
		return ReachLocal
	}
	if c.IsInvoke() {
		return ReachUnknown // an interface method: the implementation decides
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
