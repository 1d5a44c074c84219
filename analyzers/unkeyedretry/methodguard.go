package unkeyedretry

import (
	"go/constant"
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
	"github.com/idemlint/idemlint/analyzers/retryscope"
)

// A function that reads a request's method (readsMethod) may retry only some methods; it does
// so only where the tests of the method hold a POST back. passesPost asks that of a loop: can
// a POST sent at the send go round to the next attempt, each branch on the method taking the
// way a POST takes? A transport that computes idempotent := isIdempotent(req.Method) ||
// req.GetBody != nil and goes round only when idempotent lets a POST with a body through; one
// that goes round only when isIdempotent(req.Method) does not. Where a branch depends on the
// method in a way the walk cannot evaluate (slices.Contains(list, req.Method), a helper
// handed the request), the method is taken to hold the POST back, as before.

// A postValue is what a boolean is for a POST request.
type postValue uint8

const (
	free    postValue = iota // the method does not decide it
	isTrue                   // true for a POST
	isFalse                  // false for a POST
	opaque                   // the method decides it in a way not evaluated
)

// passesPost reports whether a POST sent by send can go round the retry loop of scope sc (a
// hand-written loop of fn, the function that reads the method, where send is) to its next
// attempt: fn's entry reaches send, and send the loop's header, each branch on the method
// taking the way a POST takes.
func passesPost(sc *retryscope.Scope, send ssa.Instruction, fn *ssa.Function) bool {
	l := sc.Loop
	if (sc.Kind != retryscope.Loop && sc.Kind != retryscope.Goto) || l == nil || send.Parent() != fn || !l.Contains(send.Block()) ||
		slices.ContainsFunc(fn.AnonFuncs, readsMethod) {
		return false // the method is read in another function than the loop's: not followed
	}
	w := &postWalk{reached: make(map[reachKey]map[*ssa.BasicBlock]bool)}
	reach := w.blocks(fn, nil, 0, true)
	if reach == nil || !reach[send.Block()] {
		return false // a POST never gets there, or the method decides in a way not evaluated
	}
	round := false
	for range flow.Forward([]*ssa.BasicBlock{send.Block()}, func(from, to *ssa.BasicBlock) bool {
		if side, _ := w.taken(from, nil, 0, true); side >= 0 && from.Succs[side] != to {
			return false
		}
		round = round || to == l.Header
		return to != l.Header && l.Contains(to)
	}) {
		if round {
			break
		}
	}
	return round
}

// A postWalk follows functions the way a POST takes them. It keeps the blocks a POST reaches in
// each function it walked: the joins of || and && ask for them again.
type postWalk struct {
	reached map[reachKey]map[*ssa.BasicBlock]bool // nil: a branch could not be evaluated
}

type reachKey struct {
	fn     *ssa.Function
	method *ssa.Parameter
	phis   bool
}

// taken returns the successor of b a POST takes (0 or 1), or -1 when it may take either;
// ok is false where b branches on the method in a way not evaluated.
func (w *postWalk) taken(b *ssa.BasicBlock, method *ssa.Parameter, depth int, phis bool) (side int, ok bool) {
	ifInstr, isIf := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !isIf {
		return -1, true
	}
	switch w.value(ifInstr.Cond, method, depth, phis) {
	case isTrue:
		return 0, true
	case isFalse:
		return 1, true
	case opaque:
		return -1, false
	}
	return -1, true
}

// blocks returns the blocks of fn that a POST can reach, each branch on the method taking the
// way a POST takes; nil where a branch depends on the method in a way not evaluated. phis
// false takes the joins for undecided (as phi does when it asks which ways reach a join).
func (w *postWalk) blocks(fn *ssa.Function, method *ssa.Parameter, depth int, phis bool) map[*ssa.BasicBlock]bool {
	k := reachKey{fn, method, phis}
	if reach, ok := w.reached[k]; ok {
		return reach
	}
	reach, blocked := make(map[*ssa.BasicBlock]bool), false
	for b := range flow.Forward([]*ssa.BasicBlock{fn.Blocks[0]}, func(from, to *ssa.BasicBlock) bool {
		side, ok := w.taken(from, method, depth, phis)
		blocked = blocked || !ok
		return ok && (side < 0 || from.Succs[side] == to)
	}) {
		reach[b] = true
	}
	if blocked {
		reach = nil
	}
	w.reached[k] = reach
	return reach
}

// value says what the boolean v is for a POST request; method, inside a predicate of the
// package, is its parameter that holds the method.
func (w *postWalk) value(v ssa.Value, method *ssa.Parameter, depth int, phis bool) postValue {
	if depth > 4 {
		return opaque
	}
	switch x := v.(type) {
	case *ssa.Const:
		if x.Value != nil && x.Value.Kind() == constant.Bool {
			return of(constant.BoolVal(x.Value))
		}
	case *ssa.UnOp:
		if x.Op == token.NOT {
			switch r := w.value(x.X, method, depth+1, phis); r {
			case isTrue:
				return isFalse
			case isFalse:
				return isTrue
			default:
				return r
			}
		}
	case *ssa.BinOp:
		if x.Op == token.EQL || x.Op == token.NEQ {
			m, other := x.X, x.Y
			if !isMethod(m, method) {
				m, other = other, m
			}
			if isMethod(m, method) {
				s, ok := flow.StringConst(other)
				if !ok {
					return opaque
				}
				return of((s == "POST") == (x.Op == token.EQL))
			}
		}
	case *ssa.Call:
		return w.call(x, method, depth)
	case *ssa.Phi:
		if !phis {
			return free
		}
		return w.phi(x, method, depth)
	}
	if involvesMethod(v, method, 0) {
		return opaque
	}
	return free
}

func of(b bool) postValue {
	if b {
		return isTrue
	}
	return isFalse
}

// call evaluates a predicate of the package asked about the method: every value it returns,
// on the ways a POST takes through it.
func (w *postWalk) call(c *ssa.Call, method *ssa.Parameter, depth int) postValue {
	arg := -1
	for i, a := range c.Call.Args {
		switch {
		case isMethod(a, method):
			arg = i
		case typeis.Request(a.Type()) || involvesMethod(a, method, 0):
			return opaque // a helper handed the request may read its method
		}
	}
	callee := c.Call.StaticCallee()
	if arg < 0 {
		if callee != nil && callee.Pkg == c.Parent().Pkg && readsMethod(callee) {
			return opaque // a closure that reads the request it captured, a method reading a field's
		}
		return free
	}
	if callee == nil || callee.Pkg != c.Parent().Pkg || len(callee.Blocks) == 0 || arg >= len(callee.Params) {
		return opaque
	}
	param := callee.Params[arg]
	reach := w.blocks(callee, param, depth+1, true)
	if reach == nil {
		return opaque
	}
	r := free
	for ret := range flow.Returns(callee) {
		if !reach[ret.Block()] {
			continue // a way a POST does not take (case http.MethodGet: return true)
		}
		if len(ret.Results) != 1 {
			return opaque
		}
		v := w.value(ret.Results[0], param, depth+1, true)
		switch {
		case v == opaque || v == free:
			return opaque
		case r == free:
			r = v
		case r != v:
			return opaque
		}
	}
	if r == free {
		return opaque
	}
	return r
}

// phi evaluates a boolean joined from several ways: those a POST can take (an edge from a
// block a POST does not reach, or from a branch on the method a POST does not take, is left
// out).
func (w *postWalk) phi(p *ssa.Phi, method *ssa.Parameter, depth int) postValue {
	reach := w.blocks(p.Parent(), method, depth+1, false)
	if reach == nil {
		return opaque
	}
	r, seen := free, false
	for i, e := range p.Edges {
		pred := p.Block().Preds[i]
		if !reach[pred] {
			continue // a block a POST does not get to
		}
		side, ok := w.taken(pred, method, depth+1, true)
		switch {
		case !ok:
			return opaque
		case side >= 0 && pred.Succs[side] != p.Block():
			continue
		}
		v := w.value(e, method, depth+1, true)
		switch {
		case v == opaque:
			return opaque
		case !seen:
			r, seen = v, true
		case r != v:
			r = free // a POST may take either: the method does not decide
		}
	}
	return r
}

// isMethod reports whether v is the method of a request (req.Method) or, inside a predicate,
// its parameter that holds it.
func isMethod(v ssa.Value, method *ssa.Parameter) bool {
	v = flow.Unwrap(v)
	if method != nil && v == ssa.Value(method) {
		return true
	}
	_, fa := flow.FieldLoad(v)
	return fa != nil && methodField(fa)
}

// methodField reports whether fa addresses the Method field of an HTTP request.
func methodField(fa *ssa.FieldAddr) bool {
	if !typeis.Request(fa.X.Type()) {
		return false
	}
	fv := flow.FieldVar(fa)
	return fv != nil && fv.Name() == "Method"
}

// involvesMethod reports whether v is computed from a request's method.
func involvesMethod(v ssa.Value, method *ssa.Parameter, depth int) bool {
	if depth > 4 || v == nil {
		return false
	}
	if isMethod(v, method) {
		return true
	}
	instr, ok := v.(ssa.Instruction)
	if !ok {
		return false
	}
	if _, ok := v.(*ssa.Phi); ok {
		return false // its ways are judged where they branch
	}
	for _, op := range instr.Operands(nil) {
		if op != nil && *op != nil && involvesMethod(*op, method, depth+1) {
			return true
		}
	}
	return false
}
