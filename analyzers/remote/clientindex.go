package remote

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/testcode"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// The package-wide index of the fields and variables through which a client's or dialer's
// timeout may be set elsewhere (see clients.go).

// index records the struct fields and package variables whose own fields the package assigns
// or passes on, so that a Timeout may be set through them. What a test does to a client (it
// hands the client's transport to a mock: gock.InterceptClient(c.http.GetClient())) does not
// bound the program's own calls.
func (st *state) index(funcs []*ssa.Function) {
	for _, fn := range funcs {
		if testcode.At(st.pass, fn.Pos()) {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch instr := instr.(type) {
				case *ssa.Store:
					switch addr := instr.Addr.(type) {
					case *ssa.FieldAddr:
						switch base := addr.X.(type) {
						case *ssa.FieldAddr:
							if fv := flow.FieldVar(base); fv != nil && !setsOther(base, addr) {
								st.fieldTouched[fv] = true
							}
						case *ssa.Global:
							st.globalTouched[base] = true
						}
					case *ssa.Global:
						if isDefaultClient(addr) {
							st.defaultTouched = true
						}
						if addr.Pkg != st.pkg && !testcode.At(st.pass, fn.Pos()) {
							st.globalTouched[addr] = true // another package's variable replaced (not by a test's stand-in)
						}
					}
				case *ssa.FieldAddr:
					st.checkTimeoutField(instr)
				case ssa.CallInstruction:
					st.checkPassed(instr.Common())
					st.checkSetter(instr.Common())
				}
			}
		}
	}
}

// checkTimeoutField notes where a timeout field of a client or dialer is set, or its address
// taken, on a value that is not a local allocation (which the walk reads directly): on a
// client kept in a struct field or package variable, that field or variable is touched; on a
// parameter, the client was passed to the function, which the walk notices where it is
// passed; anywhere else, the model gives up on the type for the package.
func (st *state) checkTimeoutField(fa *ssa.FieldAddr) {
	fv := flow.FieldVar(fa)
	if fv == nil {
		return
	}
	for _, t := range knowledge.ClientTypes {
		if !typeis.Named(fa.X.Type(), t.Pkg, t.Name) || !slices.Contains(t.Fields, fv.Name()) && fv.Name() != t.SubField {
			continue
		}
		written := false
		for _, r := range *fa.Referrers() {
			if s, ok := r.(*ssa.Store); ok && s.Addr == fa && onlyWhenGiven(s) {
				continue // set only when the caller gives one: by default, not set
			}
			if s, ok := r.(*ssa.Store); ok && s.Addr == fa && st.zeroUnlessSet(s.Val) {
				// Set to what the package's users set, zero by default: not set by default.
				if load, ok := fa.X.(*ssa.UnOp); ok {
					if kept, ok := load.X.(*ssa.FieldAddr); ok && flow.FieldVar(kept) != nil {
						st.unsetVia[flow.FieldVar(kept)] = s
					}
				}
				continue
			}
			if load, ok := r.(*ssa.UnOp); !ok || load.X != fa {
				written = true
			}
		}
		if !written {
			continue
		}
		st.written(fa.X, t, 0)
	}
}

// written notes that a setting of the client or dialer base (of type t) is written: the field
// or variable it was loaded from may be given a timeout elsewhere; a value of a call that is
// not made for the caller, or one the walk cannot place, leaves every such value of the
// package untraced. A phi is each of its values (client := s.HTTPClient; if client == nil {
// client = &http.Client{} }; client.Timeout = d).
func (st *state) written(base ssa.Value, t *knowledge.ClientType, depth int) {
	switch base := base.(type) {
	case *ssa.Alloc, *ssa.Parameter:
	case *ssa.Call, *ssa.Extract:
		if c, ok := base.(*ssa.Call); ok && depth <= 16 {
			if recv := chainRecv(&c.Call, t); recv != nil {
				st.written(recv, t, depth+1) // set on what a setter returns: on its receiver
				return
			}
		}
		if !st.fresh(base) {
			st.untraced[t] = true
		}
	case *ssa.UnOp:
		if !st.touch(base.X) {
			st.untraced[t] = true
		}
	case *ssa.Phi:
		if depth > 4 {
			st.untraced[t] = true
			return
		}
		for _, e := range base.Edges {
			st.written(e, t, depth+1)
		}
	default:
		if !st.touch(base) {
			st.untraced[t] = true
		}
	}
}

// fresh reports whether v, the result of a call, is a value made for the caller, which the
// walk reads where it is used (what the caller sets on it): the result of a library
// constructor the tables or a resultFact know, or of a function of this package that returns
// only values it makes.
func (st *state) fresh(v ssa.Value) bool {
	call, idx := flow.CallResult(v)
	if call == nil {
		return false
	}
	fn := call.Call.StaticCallee()
	if fn == nil {
		return false
	}
	if fn.Pkg != st.pkg {
		callee := flow.Callee(call.Common())
		id := flow.ID(callee)
		_, ctor := knowledge.NoTimeoutConstructors[id]
		_, std := knowledge.SendsThrough[id]
		return ctor || std || slices.ContainsFunc(knowledge.ClientTypes, func(t *knowledge.ClientType) bool {
			_, ok := st.constructed(callee, idx, t)
			return ok
		})
	}
	return st.freshResults(fn, idx)
}

// freshResults reports whether fn, of this package, returns as its result idx only values it
// makes: composite literals, new(T), and fresh results of calls.
func (st *state) freshResults(fn *ssa.Function, idx int) bool {
	for r := range returned(fn, idx) {
		switch r := flow.Unwrap(r).(type) {
		case *ssa.Alloc:
		case *ssa.Call, *ssa.Extract:
			if !st.fresh(r) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// checkSetter notes where a method that sets a timeout (resty's SetTimeout) or hands over a
// part that may bound the calls (SetTransport) is called on a client that is not made in the
// function, as checkTimeoutField does for a timeout field.
func (st *state) checkSetter(c *ssa.CallCommon) {
	fn := c.StaticCallee()
	if fn == nil || c.IsInvoke() || fn.Signature.Recv() == nil || len(c.Args) == 0 {
		return
	}
	for _, t := range knowledge.ClientTypes {
		if !typeis.Named(fn.Signature.Recv().Type(), t.Pkg, t.Name) {
			continue
		}
		if _, ok := setterEffect(c, t); ok || slices.Contains(t.Setters, fn.Name()) {
			st.written(c.Args[0], t, 0)
		}
	}
}

// checkPassed notes the struct fields and package variables whose value a call passes as an
// argument (other than as the receiver of a client's or dialer's method): the callee may set
// a timeout on it.
func (st *state) checkPassed(c *ssa.CallCommon) {
	for i, a := range c.Args {
		load, ok := a.(*ssa.UnOp)
		if !ok || load.Op != token.MUL || types.IsInterface(a.Type()) {
			continue // an interface (an HTTPClient of the package's own): the callee cannot reach a timeout field without asserting the type, which gives up on it (checkTimeoutField)
		}
		if i == 0 && !c.IsInvoke() {
			if fn := c.StaticCallee(); fn != nil && fn.Signature.Recv() != nil {
				continue // a method called on it
			}
		}
		if objTypeOf(a.Type()) != nil && st.usesOnly(c, i) {
			continue // a function that sends through it, without setting a timeout on it
		}
		st.touch(load.X)
	}
}

// usesOnly reports whether the function c calls uses its argument i, a client or dialer,
// without setting a timeout on it or handing it to code that may: by its body for a function
// of this package, by its paramFact (it sends requests through that parameter) for another's.
func (st *state) usesOnly(c *ssa.CallCommon, i int) bool {
	fn := c.StaticCallee()
	if c.IsInvoke() || fn == nil {
		return false
	}
	if fn.Origin() != nil {
		fn = fn.Origin() // an instance of a generic function: its body is the generic one's
	}
	if fn.Pkg != st.pkg {
		for _, p := range st.passed(fn) {
			if p.Index == i && p.Client != "" {
				return true
			}
		}
		// Handed back without a timeout set on it (an instrumenting helper).
		if obj, ok := fn.Object().(*types.Func); ok {
			if f := importFact(st.pass, st.results, obj); f != nil {
				return slices.ContainsFunc(f.Results, func(b Built) bool { return b.Passes && b.Param == i })
			}
		}
		return false
	}
	if i >= len(fn.Params) || len(fn.Blocks) == 0 {
		return false
	}
	p := fn.Params[i]
	t := objTypeOf(p.Type())
	if t == nil {
		return false
	}
	if r, ok := st.readOnly[p]; ok {
		return r
	}
	st.readOnly[p] = true // in progress: a recursive call sets nothing more
	r := st.walker(fn).fieldsSet(p, t, nil, 0).k == vUnbounded
	st.readOnly[p] = r
	return r
}

// setsOther reports whether a store at addr, a field of the client or dialer held in field
// base, sets one that bounds nothing (hc.CheckRedirect = ...): no timeout is set through base
// that way.
func setsOther(base, addr *ssa.FieldAddr) bool {
	t, fv := objTypeOf(base.Type()), flow.FieldVar(addr)
	if t == nil || fv == nil {
		return false
	}
	name := fv.Name()
	return !slices.Contains(t.Fields, name) && name != t.SubField && !(t == knowledge.HTTPClient && name == "Transport")
}

// touch notes that the struct field or package variable at addr may be given a timeout
// elsewhere; it reports false when addr is neither.
func (st *state) touch(addr ssa.Value) bool {
	switch x := addr.(type) {
	case *ssa.FieldAddr:
		st.fieldTouched[flow.FieldVar(x)] = true
	case *ssa.Global:
		st.globalTouched[x] = true
		if isDefaultClient(x) {
			st.defaultTouched = true
		}
	default:
		return false
	}
	return true
}
