package retryscope

import (
	"fmt"
	"go/types"
	"runtime"
	"slices"
	"sync"
	"weak"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// predicateSummary says for which failures fn, a function of the program that returns a bool,
// is true of its parameter param, when every way to a result that can be true passes a test
// that singles that error out (var e *APIError; return errors.As(err, &e) && e.Code == 16: the
// program's own condition; ne.Timeout() after errors.As(err, &ne) with a net.Error: transport
// failures; a predicate it calls with the error). False when a true result can be reached
// without such a test, or fn is not such a function. coded says whether every true result
// also read a field of what it singled out (e.Code == 16, e.Message), or found in its text
// a phrase of no transport failure (namedText): the answer names a cause.
func predicateSummary(fn *ssa.Function, param, depth int) (on Failures, coded, ok bool) {
	if len(fn.Blocks) == 0 {
		if f, ok := importedPredicates.Load(weak.Make(fn)); ok && f.(*predicateFact).Param == param {
			return f.(*predicateFact).On, f.(*predicateFact).Coded, true
		}
		return 0, false, false
	}
	sig := fn.Signature
	if depth > 2 || len(fn.Blocks) > 64 || param >= len(fn.Params) ||
		sig.Results().Len() != 1 || !typeis.Bool(sig.Results().At(0).Type()) {
		return 0, false, false
	}
	p := fn.Params[param]
	// isParam: the parameter, or what a function of one error makes of it (errors.Unwrap(err),
	// a parent in the chain: the same error, further down).
	var isParam func(v ssa.Value) bool
	isParam = func(v ssa.Value) bool {
		v = flow.Unwrap(v)
		if c, ok := v.(*ssa.Call); ok && len(c.Call.Args) == 1 && !c.Call.IsInvoke() && typeis.ErrorLike(v.Type()) {
			return isParam(c.Call.Args[0])
		}
		return v == p
	}
	// test says what a condition on the parameter singles out, and whether it names a type
	// (whose fields may then be compared with statuses). self: the predicate asked again of
	// the error's parent, true only where one of its other ways is.
	test := func(v ssa.Value) (on Failures, typed, coded, self, ok bool) {
		if target, ok := singlesOutOf(v, isParam); ok {
			on, typed := targetKind(target, v)
			return on, typed, namedText(target), false, true
		}
		if c, ok := v.(*ssa.Call); ok {
			if callee := c.Call.StaticCallee(); callee != nil {
				for i, a := range c.Call.Args {
					if isParam(a) {
						if callee == fn && i == param {
							return 0, false, false, true, true
						}
						on, coded, ok := predicateSummary(callee, i, depth+1)
						return on, false, coded, false, ok
					}
				}
			}
		}
		return 0, false, false, false, false
	}
	type at struct {
		b, from *ssa.BasicBlock
		on      Failures // what the way so far singled out; 0: nothing yet
		typed   bool
		coded   bool // a field of what it singled out was read on the way
	}
	var total Failures
	allCoded := true
	seen := make(map[at]bool)
	stack := []at{{b: fn.Blocks[0]}}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[s] || len(seen) > 512 {
			if !seen[s] {
				return 0, false, false
			}
			continue
		}
		seen[s] = true
		switch last := lastInstr(s.b).(type) {
		case *ssa.Return:
			v := last.Results[0]
			if phi, ok := v.(*ssa.Phi); ok && phi.Block() == s.b {
				i := slices.Index(s.b.Preds, s.from)
				if i < 0 {
					return 0, false, false
				}
				v = phi.Edges[i]
			}
			if isFalse(v) {
				continue
			}
			on, coded := s.on, s.coded
			if k, _, kc, self, ok := test(unNot(v)); ok && countNots(v) == 0 {
				if self {
					continue
				}
				on, coded = k, kc
			} else if s.typed {
				if f, ok := fieldStatus(v, 0); ok {
					on = f
				} else if f, ok := codeStatus(v, 0); ok {
					on = f
				}
				coded = coded || readsField(v)
			}
			if on == 0 {
				return 0, false, false // true without singling the error out
			}
			total |= on
			allCoded = allCoded && coded
		case *ssa.If:
			k, typed, kc, self, ok := test(unNot(last.Cond))
			ok = ok && !self
			matchSide := countNots(last.Cond) % 2
			for side, succ := range s.b.Succs {
				next := at{b: succ, from: s.b, on: s.on, typed: s.typed, coded: s.coded}
				switch {
				case ok && side == matchSide:
					next.on, next.typed, next.coded = k, typed, kc
				case !ok && s.typed:
					if f, isStatus := fieldStatus(last.Cond, side); isStatus {
						next.on = f
					} else if f, isCode := codeStatus(last.Cond, side); isCode {
						next.on = f
					}
					next.coded = next.coded || readsField(last.Cond)
				}
				stack = append(stack, next)
			}
		default:
			for _, succ := range s.b.Succs {
				stack = append(stack, at{b: succ, from: s.b, on: s.on, typed: s.typed, coded: s.coded})
			}
		}
	}
	return total, allCoded && total != 0, total != 0
}

// predicateFact marks an exported function that returns a bool true only for some errors of
// its parameter Param (predicateSummary: On, Coded): errors.IsAuthError(err) in a module's
// errors package, apierrors.IsConflict(err).
type predicateFact struct {
	Param int
	On    Failures
	Coded bool
}

func (*predicateFact) AFact() {}

func (f *predicateFact) String() string {
	return fmt.Sprintf("true only for %s of parameter %d", f.On, f.Param)
}

// importedPredicates holds, for the functions of other packages called in the package being
// analysed (they have no blocks), their predicateFact: predicateSummary reads it there, for
// this pass and the checks that ask the model afterwards. Keyed weakly by the function, which
// is its own pass's SSA program's (entries of one pass never answer another's), and dropped
// with it: a driver that analyses many packages in one process (golangci-lint) keeps no
// program alive through this map.
var importedPredicates sync.Map // weak.Pointer[ssa.Function] -> *predicateFact

// importPredicates fills importedPredicates for the calls of other packages' functions.
func (st *state) importPredicates() {
	for _, fn := range st.funcs {
		for call := range flow.Calls(fn) {
			callee := call.Common().StaticCallee()
			if callee == nil || len(callee.Blocks) > 0 {
				continue
			}
			obj, ok := callee.Object().(*types.Func)
			if !ok || obj.Pkg() == nil || obj.Pkg() == st.pass.Pkg {
				continue
			}
			var f predicateFact
			if st.pass.ImportObjectFact(obj, &f) {
				k := weak.Make(callee)
				if _, loaded := importedPredicates.LoadOrStore(k, &f); !loaded {
					runtime.AddCleanup(callee, func(k weak.Pointer[ssa.Function]) { importedPredicates.Delete(k) }, k)
				}
			}
		}
	}
}

// exportPredicates exports a predicateFact for the package's exported functions that are
// predicates of an error (predicateSummary).
func (st *state) exportPredicates() {
	for _, fn := range st.funcs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || !obj.Exported() || obj.Pkg() != st.pass.Pkg || fn.Signature.Results().Len() != 1 {
			continue
		}
		for i, p := range fn.Params {
			if !typeis.ErrorLike(p.Type()) {
				continue
			}
			if on, coded, ok := predicateSummary(fn, i, 0); ok {
				st.pass.ExportObjectFact(obj, &predicateFact{Param: i, On: on, Coded: coded})
			}
			break
		}
	}
}

// readsField reports whether the condition v reads a field of a value (e.Code == 16,
// strings.Contains(e.Message, "versions")): data the answer carried, not a verdict a method of
// the error gives (e.Temporary()).
func readsField(v ssa.Value) bool {
	found := false
	flow.Backward(v, 16, func(x ssa.Value) bool {
		switch x.(type) {
		case *ssa.Field, *ssa.FieldAddr:
			found = true
		case *ssa.Call:
			if c := x.(*ssa.Call); c.Call.IsInvoke() || c.Call.Signature().Recv() != nil {
				return false // a method's verdict: what it reads is its own
			}
		}
		return !found
	})
	return found
}
