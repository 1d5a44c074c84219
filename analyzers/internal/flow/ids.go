package flow

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Callee returns the function or method that call c invokes, when it is known statically or is
// an interface method, or the method of a method value (f := c.hc.Do; f(req)); for generic
// functions it returns the generic origin. It returns nil for calls of other function values,
// closures and built-ins.
func Callee(c *ssa.CallCommon) *types.Func {
	if c.IsInvoke() {
		return c.Method
	}
	if fn := c.StaticCallee(); fn != nil {
		if obj, ok := fn.Object().(*types.Func); ok {
			return obj.Origin()
		}
	}
	return nil
}

// HookDefault returns, for a call of a function-valued hook whose default is a method value
// (f := c.do; if f == nil { f = c.HTTPClient.Do }; f(req)), that method value, a closure of a
// bound method wrapper whose one binding is the receiver, and the hook's value. Whether the
// default is what runs (nothing but tests sets the hook) is the caller's to judge.
func HookDefault(c *ssa.CallCommon) (mc *ssa.MakeClosure, hook ssa.Value) {
	phi, ok := Unwrap(c.Value).(*ssa.Phi)
	if c.IsInvoke() || !ok || len(phi.Edges) != 2 {
		return nil, nil
	}
	for i, e := range phi.Edges {
		mc := boundClosure(e)
		if mc == nil {
			continue
		}
		hook := Unwrap(phi.Edges[1-i])
		for ifInstr, side := range TestsAbove(mc.Block()) {
			if x, nilSide := NilBranch(ifInstr); x != nil && Unwrap(x) == hook {
				if side == nilSide {
					return mc, hook
				}
				return nil, nil
			}
		}
	}
	return nil, nil
}

// DecoratedBound returns, for a call of a function value that starts as a method value and
// that decorators may wrap (handler := c.HTTPClient.Do; for ... { handler = wrap(mw[i],
// handler) }; handler(req)), that method value: a closure of a bound method wrapper, the one
// value the variable takes that no decorator made; nil otherwise. With no decorator configured,
// the method is what runs, and each decorator hands the request on to it.
func DecoratedBound(c *ssa.CallCommon) *ssa.MakeClosure {
	phi, ok := Unwrap(c.Value).(*ssa.Phi)
	if c.IsInvoke() || !ok {
		return nil
	}
	var base *ssa.MakeClosure
	for _, e := range phi.Edges {
		if mc := boundClosure(e); mc != nil {
			if base != nil && base != mc {
				return nil
			}
			base = mc
			continue
		}
		wrap, ok := Unwrap(e).(*ssa.Call)
		if !ok || !slices.ContainsFunc(wrap.Call.Args, func(a ssa.Value) bool { return Unwrap(a) == phi }) {
			return nil // a value from elsewhere: not only decorations of the method
		}
	}
	return base
}

// NilBranch returns x when ifInstr branches on x == nil or x != nil (under any number of
// negations), and the index of the successor taken when x is nil; nil otherwise.
func NilBranch(ifInstr *ssa.If) (x ssa.Value, nilSide int) {
	cond, negated := ifInstr.Cond, false
	for {
		u, ok := cond.(*ssa.UnOp)
		if !ok || u.Op != token.NOT {
			break
		}
		cond, negated = u.X, !negated
	}
	cmp, ok := cond.(*ssa.BinOp)
	if !ok || cmp.Op != token.EQL && cmp.Op != token.NEQ {
		return nil, 0
	}
	x, y := cmp.X, cmp.Y
	if IsNil(x) {
		x, y = y, x
	}
	if !IsNil(y) {
		return nil, 0
	}
	if (cmp.Op == token.NEQ) != negated {
		nilSide = 1
	}
	return x, nilSide
}

// Bound returns the method that mc, a closure of a bound method wrapper, calls, and its
// receiver.
func Bound(mc *ssa.MakeClosure) (*types.Func, ssa.Value) {
	return mc.Fn.(*ssa.Function).Object().(*types.Func).Origin(), mc.Bindings[0]
}

// boundClosure returns v when it is a closure of a bound method wrapper.
func boundClosure(v ssa.Value) *ssa.MakeClosure {
	mc, ok := Unwrap(v).(*ssa.MakeClosure)
	if !ok || len(mc.Bindings) != 1 {
		return nil
	}
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok || !strings.HasPrefix(fn.Synthetic, "bound method wrapper") {
		return nil
	}
	if _, ok := fn.Object().(*types.Func); !ok {
		return nil
	}
	return mc
}

// FuncID names a function or method: package path, receiver type name ("" for functions), name.
type FuncID struct {
	Pkg, Recv, Name string
}

// computing are standard packages whose functions only compute a value from their arguments.
var computing = map[string]bool{
	"strings": true, "strconv": true, "bytes": true, "encoding/hex": true, "encoding/base64": true,
	"encoding/base32": true, "unicode/utf8": true, "path": true, "net/url": true,
}

// Computes reports whether id is a standard function that only computes a value from its
// arguments: string, byte, number, path and URL functions, and fmt's Sprint functions.
func Computes(id FuncID) bool {
	return computing[id.Pkg] || id.Pkg == "fmt" && strings.HasPrefix(id.Name, "Sprint")
}

// xnetContext is the pre-Go 1.7 path of package context.
const xnetContext = "golang.org/x/net/context"

// ID returns the identity of fn. The receiver is the named type, without pointer or type
// arguments; interface methods have the interface's name.
func ID(fn *types.Func) FuncID {
	if fn == nil || fn.Pkg() == nil {
		return FuncID{}
	}
	id := FuncID{Pkg: fn.Pkg().Path(), Name: fn.Name()}
	if id.Pkg == xnetContext {
		// golang.org/x/net/context's functions call the standard library's of the same
		// name (its types are aliases): they are those.
		id.Pkg = "context"
	}
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
		t := sig.Recv().Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			id.Recv = n.Origin().Obj().Name()
		}
	}
	return id
}

// Name is how a message names a function, seen from package from: "fetch" for a function of
// from, "uuid.NewString" for one of another package, "Client.Do" for a method.
func Name(fn *types.Func, from *types.Package) string {
	if fn == nil {
		return ""
	}
	id := ID(fn)
	switch {
	case id.Recv != "":
		return id.Recv + "." + id.Name
	case fn.Pkg() != nil && fn.Pkg() != from:
		return fn.Pkg().Name() + "." + id.Name
	}
	return id.Name
}

// QualifiedName is Name with another package's methods qualified too: "retryablehttp.Client.Do"
// seen from any package but go-retryablehttp.
func QualifiedName(fn *types.Func, from *types.Package) string {
	if fn == nil {
		return ""
	}
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil && fn.Pkg() != nil && fn.Pkg() != from {
		return fn.Pkg().Name() + "." + Name(fn, nil)
	}
	return Name(fn, from)
}

// ParseFunc parses a function named in a flag: "pkg/path.Func" or "pkg/path.Type.Method" (the
// receiver may be written (*Type)).
func ParseFunc(s string) (FuncID, error) {
	slash := strings.LastIndex(s, "/")
	dot := strings.Index(s[slash+1:], ".")
	if dot < 0 {
		return FuncID{}, fmt.Errorf("%q: want pkg/path.Func or pkg/path.Type.Method", s)
	}
	id := FuncID{Pkg: s[:slash+1+dot], Name: s[slash+1+dot+1:]}
	if recv, name, ok := strings.Cut(id.Name, "."); ok {
		id.Recv, id.Name = strings.Trim(recv, "(*)"), name
	}
	return id, nil
}

// Callable reports whether other packages can call fn by name: an exported function, or an
// exported method of an exported type.
func Callable(fn *ssa.Function) bool {
	obj, ok := fn.Object().(*types.Func)
	if !ok || !obj.Exported() {
		return false
	}
	recv := fn.Signature.Recv()
	if recv == nil {
		return true
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	return ok && named.Obj().Exported()
}
