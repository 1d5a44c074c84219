// What a dynamic call may run: its static callee, the closures a function value is made from,
// the implementations the package itself wires into an interface.

package remote

import (
	"go/token"
	"go/types"
	"slices"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/ssapkg"
	"github.com/idemlint/idemlint/analyzers/internal/testcode"
	"golang.org/x/tools/go/ssa"
)

// targets returns the functions of this package that call c may run, when they are known: its
// static callee, or the closures and functions a function value is made from in this
// function (through phis, variables and captured variables). It returns nil otherwise.
func (r *reacher) targets(c *ssa.CallCommon) []*ssa.Function {
	if c.IsInvoke() {
		return r.implementations(c)
	}
	if callee := flow.Generic(c.StaticCallee()); callee != nil {
		if callee.Pkg == r.pkg {
			return []*ssa.Function{callee}
		}
		return nil
	}
	return r.funcs(c.Value)
}

// implementations returns the methods that an interface call may run when the interface is
// unexported and declared in this package, or the method is: its implementations are the
// package's own types
// (fsnotify's Watcher.Add calling w.b.Add on its OS backend). It returns nil otherwise.
//
// Or, for an interface of any package, the methods of what the package stores into the
// unexported struct field the call's receiver is loaded from (q.scheduler, set only to a
// NewFifoScheduler(...) of the package): no other package can put a value there.
func (r *reacher) implementations(c *ssa.CallCommon) []*ssa.Function {
	if fns := r.wired(c); fns != nil {
		return fns
	}
	named, ok := types.Unalias(c.Value.Type()).(*types.Named)
	if !ok {
		return nil
	}
	if own := !c.Method.Exported() && c.Method.Pkg() == r.pass.Pkg; !own && (named.Obj().Exported() || r.fromCallers(c.Value)) {
		// The users' value: other packages' types fill it too. Not for a method unexported
		// here (findDevice()): only this package's types have it (or types embedding one,
		// which run its method).
		return nil
	}
	// A test's stand-in is not what the package runs: with only stand-ins (a mock of the SDK
	// client the package stores there), the implementations are other packages'.
	var fns []*ssa.Function
	for _, fn := range r.impls.Of(c) {
		if !testcode.At(r.pass, fn.Pos()) {
			fns = append(fns, fn)
		}
	}
	return fns
}

// fromCallers reports whether v, an interface call's receiver, is a value the package's users
// give: a parameter of a function they can call, or an unexported field into which the package
// stores one (New(client mgmter) keeping client): another package's type, which implements the
// interface by its methods, may be what it holds.
func (r *reacher) fromCallers(v ssa.Value) bool {
	if flow.CallersValue(v) {
		return true
	}
	fv := flow.OwnField(v, r.pass.Pkg)
	return fv != nil && r.stores != nil && slices.ContainsFunc(r.stores.Fields[fv], flow.CallersValue)
}

// wired returns the methods an interface call runs when its receiver is an unexported struct
// field of this package into which the package stores only values of its own concrete types
// (directly, or as the result of a function of the package that returns one); nil otherwise.
func (r *reacher) wired(c *ssa.CallCommon) []*ssa.Function {
	fv := flow.OwnField(c.Value, r.pass.Pkg)
	if fv == nil || r.stores == nil || len(r.stores.Fields[fv]) == 0 {
		return nil
	}
	var out []*ssa.Function
	var add func(v ssa.Value, depth int) bool
	add = func(v ssa.Value, depth int) bool {
		x := v
		for {
			switch y := x.(type) {
			case *ssa.MakeInterface:
				x = y.X // the concrete value, of its own named type (not what it converts)
				continue
			case *ssa.ChangeInterface:
				x = y.X
				continue
			}
			break
		}
		if k, ok := x.(*ssa.Const); ok {
			return k.IsNil() // a field cleared on close
		}
		if call, ok := x.(*ssa.Call); ok && types.IsInterface(call.Type()) {
			// A constructor of the package that returns the interface.
			callee := call.Call.StaticCallee()
			if callee == nil || callee.Pkg != r.pkg || depth > 1 {
				return false
			}
			n := 0
			for ret := range flow.Returns(callee) {
				if len(ret.Results) != 1 || !add(ret.Results[0], depth+1) {
					return false
				}
				n++
			}
			return n > 0
		}
		if types.IsInterface(x.Type()) {
			return false
		}
		sel := r.pkg.Prog.MethodSets.MethodSet(x.Type()).Lookup(c.Method.Pkg(), c.Method.Name())
		if sel == nil {
			return false // stored through a wider interface: not the method called here
		}
		m := r.pkg.Prog.MethodValue(sel)
		if m == nil || m.Pkg != r.pkg || m.Synthetic != "" {
			return false
		}
		out = append(out, m)
		return true
	}
	for _, v := range r.stores.Fields[fv] {
		if !add(v, 0) {
			return nil
		}
	}
	return out
}

// funcs returns the functions of this package that the function value v is made from in its
// function (through phis, variables and captured variables), or nil when one is not known.
func (r *reacher) funcs(v ssa.Value) []*ssa.Function {
	var (
		found []*ssa.Function
		seen  = make(map[ssa.Value]bool)
		walk  func(v ssa.Value) bool
	)
	walk = func(v ssa.Value) bool {
		v = flow.Unwrap(v)
		if seen[v] {
			return true
		}
		seen[v] = true
		switch v := v.(type) {
		case *ssa.Function:
			if v.Pkg != r.pkg {
				return false
			}
			found = append(found, v)
			return true
		case *ssa.MakeClosure:
			if fn, ok := v.Fn.(*ssa.Function); ok && fn.Synthetic != "" {
				obj, _ := fn.Object().(*types.Func)
				// A method value's wrapper: the method itself.
				if obj != nil {
					if m := r.pkg.Prog.FuncValue(obj); m != nil {
						return walk(m)
					}
				}
			}
			return walk(v.Fn)
		case *ssa.Phi:
			for _, e := range v.Edges {
				if !walk(e) {
					return false
				}
			}
			return true
		case *ssa.TypeAssert:
			return walk(v.X) // table[op].(func(string) error)
		case *ssa.Lookup:
			// An entry of a table of functions (a backend's operations by name): the
			// functions the package puts there under that key.
			if r.stores == nil {
				return false
			}
			entries, complete := r.stores.MapEntries(v.X, v.Index)
			if !complete || len(entries) == 0 {
				return false
			}
			for _, e := range entries {
				if !walk(e) {
					return false
				}
			}
			return true
		case *ssa.UnOp:
			if v.Op != token.MUL {
				return false
			}
			alloc, ok := v.X.(*ssa.Alloc)
			if !ok {
				if fv, isFree := v.X.(*ssa.FreeVar); isFree {
					for _, b := range flow.Bindings(fv) {
						if a, isAlloc := b.(*ssa.Alloc); isAlloc {
							alloc = a
						}
					}
				}
			}
			if alloc == nil {
				return false
			}
			stored := flow.Stored(alloc)
			if len(stored) == 0 {
				return false
			}
			for _, x := range stored {
				if !walk(x) {
					return false
				}
			}
			return true
		}
		return false
	}
	if walk(v) {
		return found
	}
	return nil
}

// unresolved reports whether call is a dynamic call that can fail and whose target the model
// cannot resolve: an interface method of a package outside the standard library, or a function
// value.
func (r *reacher) unresolved(call ssa.CallInstruction) bool {
	if r.remote[call] {
		return false
	}
	c := call.Common()
	for _, arg := range c.Args {
		// A fallible callback from elsewhere (a field, a map) handed to the callee.
		if r.unseenCallback(arg) && !handedIn(arg) {
			return true
		}
	}
	if r.targets(c) != nil {
		return false
	}
	if flow.Callee(c) == nil {
		// A function value: a callback handed in is the caller's to account for.
		return !handedIn(c.Value) && r.callee(call) == ReachUnknown
	}
	return c.IsInvoke() && r.callee(call) == ReachUnknown
}

// handedIn reports whether v is a parameter of its function, or a captured parameter of an
// enclosing one: a callback of the caller's (a range-over-func loop's yield is its body).
func handedIn(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Parameter:
		return true
	case *ssa.FreeVar:
		for _, b := range flow.Bindings(v) {
			if handedIn(b) {
				return true
			}
		}
	}
	return false
}

// importedUnknown reports whether c calls another package's function whose fact says it may
// reach a remote call.
func (r *reacher) importedUnknown(c *ssa.CallCommon) bool {
	fn := flow.Callee(c)
	if fn == nil || c.IsInvoke() || fn.Pkg() == nil || fn.Pkg() == r.pass.Pkg || ssapkg.IsStdPath(fn.Pkg().Path()) {
		return false
	}
	f := importFact(r.pass, r.imported, fn)
	return f != nil && f.Unknown
}
