package retryscope

import (
	"go/constant"
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

// Which of the program's error variables a retry predicate goes round on, and which it turns
// down at once. Two layers that both go round on "the program's own errors" (FailOther)
// multiply only for an error that the inner layer retries and the outer does not refuse: an
// inner poll that goes round only on ErrBlobNotFound, under a wrapper that never retries
// ErrBlobNotFound, makes one round of polling per outer attempt, not the product.

// sentinelTested returns the package-level error variable that cond compares p with
// (errors.Is(p, ErrX), p == ErrX), and the successor of a branch on cond taken when they
// match; nil when cond is no such test.
func sentinelTested(cond, p ssa.Value) (*ssa.Global, int) {
	match := countNots(cond) % 2
	global := flow.LoadedGlobal
	switch c := unNot(cond).(type) {
	case *ssa.Call:
		if sentinel(c) && errorsPredicate(c) && len(c.Call.Args) == 2 && flow.Unwrap(c.Call.Args[0]) == p {
			if g := global(c.Call.Args[1]); g != nil {
				return g, match
			}
		}
	case *ssa.BinOp:
		if errv, g := sentinelOf(c); g != nil && flow.Unwrap(errv) == p {
			if c.Op == token.NEQ {
				match = 1 - match
			}
			return g, match
		}
	}
	return nil, 0
}

// predicateSentinels returns, for fn, a predicate of its parameter param: only, the error
// variables it has singled out on every way to true, when it is true for those alone (nil
// otherwise); refused, those for which it answers false as soon as it has singled them out
// (case errors.Is(err, ErrNotFound): return false).
func predicateSentinels(fn *ssa.Function, param int) (only, refused []string) {
	return sentinelVars(predicateNamed(fn, param))
}

// sentinelVars keeps, of what predicateNamed found, the variables: only when they alone make
// it true (a phrase among them leaves only nil), and those it refuses.
func sentinelVars(named, refusedNamed []NamedError) (only, refused []string) {
	for _, n := range named {
		if n.Var == "" {
			only = nil // a phrase of the error's text: not variables alone
			break
		}
		only = append(only, n.Var)
	}
	for _, n := range refusedNamed {
		if n.Var != "" {
			refused = append(refused, n.Var)
		}
	}
	return only, refused
}

// predicateNamed is predicateSentinels for every error a test names (NamedError): variables,
// and phrases looked for in the error's text (strings.Contains(err.Error(), "busy")).
func predicateNamed(fn *ssa.Function, param int) (only, refused []NamedError) {
	if param >= len(fn.Params) || len(fn.Blocks) > 64 {
		return nil, nil
	}
	p := fn.Params[param]
	isParam := func(v ssa.Value) bool { return flow.Unwrap(v) == p }
	// named returns the error that cond names of p, and the side on which it matched.
	named := func(cond ssa.Value) (*NamedError, int) {
		if g, match := sentinelTested(cond, p); g != nil {
			return &NamedError{Var: g.Pkg.Pkg.Path() + "." + g.Name(), Text: messageOf(g)}, match
		}
		if text, ok := textTest(unNot(cond), isParam); ok && namedText(text) {
			return &NamedError{Text: constant.StringVal(text.Value)}, countNots(cond) % 2
		}
		return nil, 0
	}
	// nearest returns the error that the nearest test above b names, when b runs on the side
	// where it matched.
	nearest := func(b *ssa.BasicBlock) *NamedError {
		for ifInstr, side := range flow.TestsAbove(b) {
			if n, match := named(ifInstr.Cond); n != nil && side == match {
				return n
			}
			return nil
		}
		return nil
	}
	all := true
	for ret := range flow.Returns(fn) {
		if ret.Block() == fn.Recover || len(ret.Results) != 1 {
			continue
		}
		v := returned(ret.Results[0])
		switch {
		case isFalse(v):
			if n := nearest(ret.Block()); n != nil {
				refused = append(refused, *n)
			}
		case isTrue(v):
			if n := nearest(ret.Block()); n != nil {
				only = append(only, *n)
			} else {
				all = false
			}
		default:
			if n, match := named(v); n != nil && match == 0 {
				only = append(only, *n) // return errors.Is(err, ErrNotFound)
			} else {
				all = false
			}
		}
	}
	if !all {
		only = nil
	}
	return only, refused
}

// refusesAll reports whether every error in only is one that refused names: an outer layer
// that turns each of them down never goes round on what the inner layer retries.
func refusesAll(refused, only []string) bool {
	return len(only) > 0 && !slices.ContainsFunc(only, func(s string) bool { return !slices.Contains(refused, s) })
}

// retriedSentinels returns the program's error variables that alone make s go round, when its
// helper's predicate says so (a Callback scope whose retry set is FailOther); nil otherwise.
func (s *Scope) retriedSentinels() []string {
	if s.Kind == Callback && s.helperOn == FailOther {
		return s.helperOnly
	}
	return nil
}
