package retryscope

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// Verdict marks: a retry package's own way for an attempt to say "stop". Its decision is a
// predicate that reads a bool field of the package's error type (func shouldRetry(err error)
// bool { e := err.(*Err); return !e.Halt }), and exported functions make that type with the
// field set to a constant (Halt(err) is &Err{err, true}, Continue(err) is &Err{err, false}).
// A function whose constant the predicate reads as "do not retry" is to the helpers that use
// that predicate what backoff.Permanent is to cenkalti's: an error handed back through it
// ends the retries. Names play no part: the field's reading decides.

// A verdictField is the field a predicate reads, and the value it retries on.
type verdictField struct {
	typ       types.Type // the error type, a pointer
	field     int
	retryWhen bool
}

// same reports whether f and g read the same field the same way (their types are the same
// type, whichever assertion spelled it).
func (f verdictField) same(g verdictField) bool {
	return f.field == g.field && f.retryWhen == g.retryWhen && types.Identical(f.typ, g.typ)
}

// stopMarks returns the marks of the package's predicates that helper fn hands on (it refers
// to the predicate as a value, in its body or its closures': WithRetryFunc(shouldRetry)).
func (st *state) stopMarks(fn *ssa.Function) []flow.FuncID {
	preds := st.verdictPredicates()
	if len(preds) == 0 {
		return nil
	}
	var out []flow.FuncID
	var visit func(f *ssa.Function, depth int)
	visit = func(f *ssa.Function, depth int) {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				for _, op := range instr.Operands(nil) {
					if op == nil {
						continue
					}
					if p, ok := (*op).(*ssa.Function); ok {
						if vf, ok := preds[p]; ok {
							if _, done := st.marks[p]; !done {
								st.marks[p] = st.marksOf(vf)
							}
							for _, m := range st.marks[p] {
								if !slices.Contains(out, m) {
									out = append(out, m)
								}
							}
						}
					}
				}
			}
		}
		if depth < 2 {
			for _, anon := range f.AnonFuncs {
				visit(anon, depth+1)
			}
		}
	}
	visit(fn, 0)
	return out
}

// verdictPredicates returns the package's functions of type func(error) bool whose answer,
// for an error other than nil, is a bool field of the error asserted to a type of the
// package, or its negation.
func (st *state) verdictPredicates() map[*ssa.Function]verdictField {
	if st.preds != nil {
		return st.preds
	}
	st.preds = make(map[*ssa.Function]verdictField)
	st.marks = make(map[*ssa.Function][]flow.FuncID)
	for _, fn := range st.funcs {
		sig := fn.Signature
		if fn.Pkg != st.ssaPkg || sig.Recv() != nil || sig.Params().Len() != 1 || sig.Results().Len() != 1 ||
			!typeis.ErrorLike(sig.Params().At(0).Type()) || !typeis.Bool(sig.Results().At(0).Type()) || len(fn.Params) != 1 {
			continue
		}
		var found *verdictField
		ok := true
		for ret := range flow.Returns(fn) {
			v := ret.Results[0]
			if b, isConst := flow.BoolConst(v); isConst && !b {
				continue // false for nil
			}
			vf, isField := markedField(v, fn.Params[0])
			if !isField || found != nil && !found.same(vf) {
				ok = false
				break
			}
			found = &vf
		}
		if !ok || found == nil {
			continue
		}
		switch st.predicateSense(fn) {
		case senseRetry:
			st.preds[fn] = *found
		case senseStop:
			// isPermanent: true says stop, so the helper retries on the field's other value.
			vf := *found
			vf.retryWhen = !vf.retryWhen
			st.preds[fn] = vf
		}
	}
	return st.preds
}

// What a predicate's true answer tells a helper.
const (
	senseUnknown = iota
	senseRetry   // go round
	senseStop    // return the error
)

// predicateSense says what pred's true answer means, from how the package uses it: tested in
// a loop (if isPermanent(err) { return err }: true leaves the loop, so it says stop), or handed
// on as a value where the package's own default for such a predicate retries every error (a
// function answering err != nil, or a configured func(error) bool field's answer): then true
// says go round. Unknown when the uses disagree or say nothing.
func (st *state) predicateSense(pred *ssa.Function) int {
	sense := senseUnknown
	note := func(s int) {
		switch {
		case sense == senseUnknown:
			sense = s
		case sense != s:
			sense = -1
		}
	}
	for _, c := range st.stores.Calls[pred] {
		call, ok := c.(*ssa.Call)
		if !ok || call.Referrers() == nil {
			continue
		}
		for _, r := range *call.Referrers() {
			cond, negated := r, false
			if u, ok := r.(*ssa.UnOp); ok && u.Op == token.NOT && u.Referrers() != nil && len(*u.Referrers()) == 1 {
				cond, negated = (*u.Referrers())[0], true
			}
			ifInstr, ok := cond.(*ssa.If)
			if !ok {
				continue
			}
			for _, l := range loops.Of(ifInstr.Parent()) {
				if !l.Contains(ifInstr.Block()) {
					continue
				}
				onTrue, onFalse := ifInstr.Block().Succs[0], ifInstr.Block().Succs[1]
				if negated {
					onTrue, onFalse = onFalse, onTrue
				}
				switch tr, fl := l.CanRepeat(onTrue), l.CanRepeat(onFalse); {
				case tr && !fl:
					note(senseRetry)
				case fl && !tr:
					note(senseStop)
				}
				break
			}
		}
	}
	if st.stores.AsValue[pred] && st.retryAllDefault() {
		note(senseRetry)
	}
	if sense < 0 {
		return senseUnknown
	}
	return sense
}

// retryAllDefault reports whether the package has a function that answers, for an error,
// err != nil or what a configured func(error) bool field answers (if r.shouldRetry == nil {
// return err != nil }; return r.shouldRetry(err)): a configured predicate's true says retry,
// as the default's does for every error.
func (st *state) retryAllDefault() bool {
	for _, fn := range st.funcs {
		sig := fn.Signature
		if fn.Pkg != st.ssaPkg || sig.Params().Len() != 1 || sig.Results().Len() != 1 || !typeis.Bool(sig.Results().At(0).Type()) {
			continue
		}
		params := fn.Params
		if sig.Recv() != nil {
			params = params[1:]
		}
		if len(params) != 1 || !typeis.ErrorLike(params[0].Type()) {
			continue
		}
		all, field := true, false
		for ret := range flow.Returns(fn) {
			switch v := ret.Results[0].(type) {
			case *ssa.BinOp:
				if v.Op != token.NEQ || !(v.X == params[0] && flow.IsNil(v.Y) || v.Y == params[0] && flow.IsNil(v.X)) {
					all = false
				}
			case *ssa.Call:
				_, fa := flow.FieldLoad(v.Call.Value)
				if _, isField := v.Call.Value.(*ssa.Field); fa == nil && !isField {
					all = false // a value receiver's field is an ssa.Field
				}
				field = true
			default:
				all = false
			}
		}
		if all && field {
			return true
		}
	}
	return false
}

// markedField reads v as !e.F or e.F, for e the error param asserted to a pointer type of
// the package.
func markedField(v ssa.Value, param *ssa.Parameter) (verdictField, bool) {
	retryWhen := true
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.NOT {
		v, retryWhen = u.X, false
	}
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return verdictField{}, false
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return verdictField{}, false
	}
	var ta *ssa.TypeAssert
	switch x := fa.X.(type) {
	case *ssa.TypeAssert:
		ta = x
	case *ssa.Extract:
		ta, _ = x.Tuple.(*ssa.TypeAssert)
		if x.Index != 0 {
			ta = nil
		}
	}
	if ta == nil || ta.X != param || !types.Identical(fa.X.Type(), ta.AssertedType) {
		return verdictField{}, false
	}
	if _, ok := ta.AssertedType.Underlying().(*types.Pointer); !ok {
		return verdictField{}, false
	}
	return verdictField{typ: ta.AssertedType, field: fa.Field, retryWhen: retryWhen}, true
}

// marksOf returns the package's exported functions that return a new value of vf's type with
// vf's field set to the value the predicate does not retry (or nil), directly or through
// another such function.
func (st *state) marksOf(vf verdictField) []flow.FuncID {
	marks := make(map[*ssa.Function]bool)
	for changed := true; changed; {
		changed = false
		for _, fn := range st.funcs {
			if marks[fn] || fn.Pkg != st.ssaPkg || fn.Parent() != nil || fn.Signature.Recv() != nil || fn.Signature.Results().Len() != 1 || len(fn.Blocks) == 0 {
				continue
			}
			if st.makesStop(fn, vf, marks) {
				marks[fn], changed = true, true
			}
		}
	}
	var out []flow.FuncID
	for _, fn := range st.funcs {
		if marks[fn] && fn.Object() != nil && fn.Object().Exported() {
			out = append(out, flow.ID(fn.Object().(*types.Func)))
		}
	}
	return out
}

// makesStop reports whether every return of fn is nil, a call of a mark, or a new value of
// vf's type whose field is set to the constant the predicate does not retry.
func (st *state) makesStop(fn *ssa.Function, vf verdictField, marks map[*ssa.Function]bool) bool {
	made := false
	for ret := range flow.Returns(fn) {
		v := flow.Unwrap(ret.Results[0])
		switch x := v.(type) {
		case *ssa.Const:
			if !x.IsNil() {
				return false
			}
		case *ssa.Call:
			if callee := x.Call.StaticCallee(); callee == nil || !marks[callee] {
				return false
			}
			made = true
		case *ssa.Alloc:
			if !types.Identical(x.Type(), vf.typ) || !setsConst(x, vf.field, !vf.retryWhen) {
				return false
			}
			made = true
		default:
			return false
		}
	}
	return made
}

// setsConst reports whether the constant want is stored into field of the struct a points to,
// and nothing else is (a whole struct stored over it, or a call handed it, may set it).
func setsConst(a *ssa.Alloc, field int, want bool) bool {
	for _, r := range *a.Referrers() {
		if _, ok := r.(ssa.CallInstruction); ok {
			return false
		}
	}
	vals := flow.FieldStores(a, field)
	for _, v := range vals {
		if b, ok := flow.BoolConst(v); !ok || b != want {
			return false
		}
	}
	return len(vals) > 0 || !want // a field left out of a new value is false
}
