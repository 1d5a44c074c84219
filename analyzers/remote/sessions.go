package remote

import (
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// Sessions: a database transaction or connection on which the program sets the server's
// statement timeout bounds every statement it runs after.

// sessionTimeout names what bounds such a statement.
const sessionTimeout = "the session's statement timeout"

// sessionBounded reports whether a database call runs on a transaction or connection on which
// the function set a statement timeout before it (SET statement_timeout, maybe in a helper
// handed the same transaction, which may be the call itself): the server ends a statement that
// stalls.
func sessionBounded(instr ssa.CallInstruction) bool {
	for _, v := range sessions(instr.Common()) {
		for other := range flow.Calls(instr.Parent()) {
			if other != instr && !flow.Before(other, instr) || !slices.ContainsFunc(sessions(other.Common()), func(x ssa.Value) bool { return flow.SameValue(x, v) || flow.SameValue(v, x) }) {
				continue
			}
			if setsTimeout(other) {
				return true
			}
		}
	}
	return false
}

// sessions returns the operands of a call that are database transactions or connections.
func sessions(cc *ssa.CallCommon) []ssa.Value {
	var out []ssa.Value
	for _, a := range append([]ssa.Value{cc.Value}, cc.Args...) {
		t := a.Type()
		for _, pkg := range []string{sqlPkg, sqlxPkg} {
			if typeis.Named(t, pkg, "Tx") || typeis.Named(t, pkg, "Conn") {
				out = append(out, flow.Unwrap(a))
			}
		}
	}
	return out
}

// setsTimeout reports whether call runs a statement that sets a session's statement timeout,
// itself (tx.ExecContext(ctx, "SET statement_timeout = '30s'"), its text a constant or a
// fmt.Sprintf format) or in the function of the package it calls.
func setsTimeout(call ssa.CallInstruction) bool {
	texts := func(cc *ssa.CallCommon) bool {
		for _, a := range cc.Args {
			if s, ok := flow.StringConst(a); ok && knowledge.SetsSessionTimeout(s) {
				return true
			}
			if c, ok := flow.Unwrap(a).(*ssa.Call); ok && flow.ID(flow.Callee(c.Common())) == (flow.FuncID{Pkg: "fmt", Name: "Sprintf"}) && len(c.Call.Args) > 0 {
				if s, ok := flow.StringConst(c.Call.Args[0]); ok && knowledge.SetsSessionTimeout(s) {
					return true
				}
			}
		}
		return false
	}
	if texts(call.Common()) {
		return true
	}
	callee := call.Common().StaticCallee()
	if callee == nil || callee.Pkg != call.Parent().Pkg || len(callee.Blocks) == 0 {
		return false
	}
	for c := range flow.Calls(callee) {
		if texts(c.Common()) {
			return true
		}
	}
	return false
}
