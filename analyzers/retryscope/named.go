package retryscope

import (
	"go/constant"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
)

// Which errors, by name, make a layer go round. Two layers that both go round only on "the
// program's own errors" (FailOther) multiply only where those are the same errors: an outer
// loop that retries a build when its error's text says "inconsistent graph state", around a
// driver that boots again only on ErrNotRunning ("driver not running"), sends one boot per
// round for each failure of the two.

// NamedError is an error that a layer's test singles out by name: a package-level error
// variable (Var "pkg/path.ErrX", Text its message when it is made from a constant), or a
// phrase looked for in an error's text (Var "", Text the phrase).
type NamedError struct {
	Var  string
	Text string
}

// NamesMeet reports whether an error that outer names can be one that inner names: the same
// variable, or a phrase found in the other's text (either way round). Unknown (a nil list, a
// variable whose message is not known) meets everything.
func NamesMeet(outer, inner []NamedError) bool {
	if outer == nil || inner == nil {
		return true
	}
	meet := func(a, b NamedError) bool {
		switch {
		case a.Var != "" && b.Var != "":
			return a.Var == b.Var
		case a.Text == "" || b.Text == "":
			return true // a variable whose message the model does not know
		}
		x, y := strings.ToLower(a.Text), strings.ToLower(b.Text)
		return strings.Contains(x, y) || strings.Contains(y, x)
	}
	for _, a := range outer {
		if slices.ContainsFunc(inner, func(b NamedError) bool { return meet(a, b) }) {
			return true
		}
	}
	return false
}

// NamedOn returns the errors that alone make s go round for a failure of call: every way round
// from call's failure takes the matching side of a test that names one (err == ErrX,
// errors.Is, a phrase of err.Error(), or a predicate of the program's whose every true result
// does one of these). Nil when some way round names none, or the model cannot tell.
func (s *Scope) NamedOn(call ssa.CallInstruction) []NamedError {
	if s.Kind == Callback {
		return s.helperNamed
	}
	if s.Kind != Loop || s.Loop == nil || s.Fn == nil || call == nil || call.Parent() != s.Fn {
		return nil
	}
	l := s.Loop
	in := l.Contains
	var names []NamedError
	tests := make(map[*ssa.BasicBlock]int) // a block ending in a naming test: its matching side
	for _, b := range s.Fn.Blocks {
		ifInstr, ok := lastInstr(b).(*ssa.If)
		if !ok || !in(b) || b.Succs[0] == b.Succs[1] {
			continue
		}
		if nm, m, ok := namingTest(ifInstr.Cond, call, in); ok {
			names = append(names, nm...)
			tests[b] = m
		}
	}
	if len(names) == 0 {
		return nil
	}
	matched := func(e loops.Edge) bool {
		m, ok := tests[e.From]
		return ok && e.To == e.From.Succs[m]
	}
	tested := false
	for _, d := range decisions(s.Fn, in) {
		if d.call != call {
			continue
		}
		fail := d.block.Succs[1-d.success]
		if !l.CanRepeat(fail) {
			continue
		}
		tested = true
		if m, ok := tests[d.block]; ok && d.block.Succs[m] == fail {
			continue // the decision is itself the naming test
		}
		if l.CanRepeatAvoiding(fail, matched) {
			return nil
		}
	}
	if !tested {
		return nil
	}
	return names
}

// NamedSet is NamedOn for the failures the scope itself retries (see RetrySet).
func (s *Scope) NamedSet() []NamedError {
	if s.Kind == Callback {
		return s.helperNamed
	}
	return s.NamedOn(s.Decisive)
}

// namingTest says which errors cond names of call's error, and the successor of a branch on
// cond taken when it matches.
func namingTest(cond ssa.Value, call ssa.CallInstruction, in func(*ssa.BasicBlock) bool) ([]NamedError, int, bool) {
	match := countNots(cond) % 2
	if target, m, ok := sentinelMatch(cond, call, in); ok {
		if transportTarget(target) {
			return nil, 0, false
		}
		if g := flow.LoadedGlobal(target); g != nil {
			return []NamedError{{Var: g.Pkg.Pkg.Path() + "." + g.Name(), Text: messageOf(g)}}, m, true
		}
		return nil, 0, false
	}
	of := func(v ssa.Value) bool { return producer(v, in) == call }
	if text, ok := textTest(unNot(cond), of); ok && namedText(text) {
		return []NamedError{{Text: constant.StringVal(text.Value)}}, match, true
	}
	if c, ok := unNot(cond).(*ssa.Call); ok {
		if fn := c.Call.StaticCallee(); fn != nil {
			for i, a := range c.Call.Args {
				if of(a) {
					if names, _ := predicateNamed(fn, i); names != nil {
						return names, match, true
					}
					return nil, 0, false
				}
			}
		}
	}
	return nil, 0, false
}

// messageOf returns the message of the error variable g when its package's initialiser makes
// it from a constant alone (errors.New("driver not running"), an Errorf with no arguments);
// "" otherwise.
func messageOf(g *ssa.Global) string {
	c, ok := flow.Unwrap(flow.InitValue(g)).(*ssa.Call)
	if !ok || len(c.Call.Args) == 0 {
		return ""
	}
	switch id := flow.ID(flow.Callee(c.Common())); {
	case id.Recv == "" && id.Name == "New" && len(c.Call.Args) == 1:
	case id.Recv == "" && id.Name == "Errorf" && len(c.Call.Args) == 2 && flow.IsNil(flow.Unwrap(c.Call.Args[1])):
		// errors.Errorf("driver not running"): a format with no arguments
	default:
		return ""
	}
	k, ok := flow.Unwrap(c.Call.Args[0]).(*ssa.Const)
	if !ok || k.Value == nil || k.Value.Kind() != constant.String {
		return ""
	}
	return constant.StringVal(k.Value)
}
