package remote

// Defaults: what a setting or a field holds when nobody sets it. A client's Timeout read from
// a field the package never stores into is zero for most users; a field's value stored only
// when a caller gives one leaves the package's own default the one most users run.

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

// unsetByDefault reports whether v, a timeout set on a client or dialer of type t, is zero
// unless the package's users set it (zeroUnlessSet), or is the timeout of another client of
// type t that has none (httpClient := http.Client{Timeout: c.hc.Timeout}).
func (w *walker) unsetByDefault(v ssa.Value, t *knowledge.ClientType, depth int) bool {
	if w.st.zeroUnlessSet(v) {
		return true
	}
	_, fa := flow.FieldLoad(flow.Unwrap(v))
	if fa == nil || flow.FieldVar(fa) == nil || !slices.Contains(t.Fields, flow.FieldVar(fa).Name()) || !typeis.Named(pointee(fa.X.Type()), t.Pkg, t.Name) {
		return false
	}
	return depth < 4 && w.obj(fa.X, nil, t).k == vUnbounded
}

// zeroUnlessSet reports whether v is zero unless the package's users set it: a field of a
// struct of this package (a library's Client.Timeout, copied onto the http.Client it builds)
// that the package never stores into and no struct tag fills from a file or the environment,
// perhaps scaled (time.Duration(cfg.TimeoutSeconds) * time.Second). The default is what most
// users run. Not in a command, whose configuration is its own, and not in options a caller
// hands in whole (a parameter other than the receiver), which that caller fills.
func (st *state) zeroUnlessSet(v ssa.Value) bool {
	v = flow.Unwrap(v)
	if bin, ok := v.(*ssa.BinOp); ok && bin.Op == token.MUL {
		return st.zeroUnlessSet(bin.X) || st.zeroUnlessSet(bin.Y)
	}
	_, fa := flow.FieldLoad(v)
	if fa == nil {
		return false
	}
	fv := flow.FieldVar(fa)
	if fv == nil || fv.Pkg() != st.pass.Pkg || st.pass.Pkg.Name() == "main" || st.fieldTouched[fv] || len(st.prodStores(fv)) > 0 {
		return false
	}
	root := flow.PlaceOf(fa).Root
	if p := flow.SpilledParam(root); p != nil {
		root = p // (the function's own copy of them)
	}
	if p, ok := root.(*ssa.Parameter); ok && !isReceiver(p) {
		// Options the caller hands in whole (NewHTTPClient(opt *HTTPOptions)): the caller
		// fills them, with values the model does not see.
		return false
	}
	return tagless(fa, fv)
}

// settingName names the setting a value zeroUnlessSet reads, as the source does:
// "Client.Timeout"; "" when it is not one field.
func settingName(v ssa.Value) string {
	name := ""
	flow.Backward(v, 8, func(x ssa.Value) bool {
		if fa, ok := x.(*ssa.FieldAddr); ok && name == "" {
			if fv := flow.FieldVar(fa); fv != nil {
				if n, ok := types.Unalias(pointee(fa.X.Type())).(*types.Named); ok {
					name = n.Obj().Name() + "." + fv.Name()
				}
			}
		}
		return name == ""
	})
	return name
}

// tagless reports whether field fv of the struct fa addresses has no struct tag: no decoder
// or configuration loader fills it from a file or the environment (json:"timeout",
// default:"30s").
func tagless(fa *ssa.FieldAddr, fv *types.Var) bool {
	str, ok := pointee(fa.X.Type()).Underlying().(*types.Struct)
	if !ok || fa.Field >= str.NumFields() || str.Field(fa.Field) != fv {
		return false
	}
	return str.Tag(fa.Field) == ""
}

// zeroGlobal evaluates a package variable of the struct type itself (var c http.Client).
func (w *walker) zeroGlobal(g *ssa.Global, t *knowledge.ClientType) verdict {
	if g.Pkg != w.st.pkg || g.Object() == nil || g.Object().Exported() || w.st.globalTouched[g] || len(w.st.stores.Globals[g]) > 0 {
		return unknown
	}
	return verdict{k: vUnbounded, origin: &Origin{Kind: ZeroVar, Type: t.Display, Field: t.Setting, Pos: g.Pos(), Name: g.Name()}}
}

// zeroField evaluates a struct field of the struct type itself (struct{ c http.Client }): its
// zero value, unless the package assigns it or sets a field of it. Exported fields may be set
// by other packages.
func (w *walker) zeroField(fa *ssa.FieldAddr, t *knowledge.ClientType) verdict {
	fv := flow.FieldVar(fa)
	if fv == nil || fv.Pkg() != w.st.pass.Pkg || fv.Exported() || fv.Embedded() || w.st.fieldTouched[fv] || len(w.st.stores.Fields[fv]) > 0 {
		return unknown
	}
	return verdict{k: vUnbounded, origin: &Origin{Kind: ZeroField, Type: t.Display, Field: t.Setting, Pos: fv.Pos(), Name: fv.Name()}}
}

// prodStores returns the values the package's production code stores into field fv: a
// test's stand-in (a test server's client) is not what users run.
//
// A caller's value stored only when the caller gives one (if cfg.HTTPClient != nil { c.hc =
// cfg.HTTPClient }) is left out when the package stores a default of its own too: the default
// is what most users run.
func (st *state) prodStores(fv *types.Var) []ssa.Value {
	var out, given []ssa.Value
	for _, v := range st.stores.Fields[fv] {
		switch {
		case testcode.Made(st.pass, v):
		case st.storedByTest(v):
		case storedOnlyWhenGiven(v, fv):
			given = append(given, v)
		default:
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		return given
	}
	return out
}

// storedByTest reports whether v is a constant that a test stores (&Client{HTTP: http.Client{}}
// in a test leaves the zero client in the field): not what users run.
func (st *state) storedByTest(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	return ok && st.stores.StoredIn[k] != nil && testcode.At(st.pass, st.stores.StoredIn[k].Pos())
}

// userField reports whether fv is an exported field of an exported struct type of its
// package: its users may set it.
func userField(fv *types.Var) bool {
	owner := flow.FieldOwner(fv)
	return fv.Exported() && owner != nil && owner.Exported()
}

// allPublicConstructors reports whether every value of vals is made in an exported function
// of the package that returns the exported struct type holding field fv, or a pointer to it.
func allPublicConstructors(vals []ssa.Value, fv *types.Var) bool {
	if fv == nil || !userField(fv) {
		return false
	}
	owner := flow.FieldOwner(fv)
	for _, v := range vals {
		instr, ok := v.(ssa.Instruction)
		if !ok {
			return false
		}
		fn := instr.Parent()
		if fn == nil || fn.Parent() != nil || fn.Signature.Recv() != nil || !token.IsExported(fn.Name()) {
			return false
		}
		res := fn.Signature.Results()
		if res.Len() == 0 || !types.Identical(types.Unalias(pointee(res.At(0).Type())), owner.Type()) {
			return false
		}
	}
	return true
}

// prodGlobals returns the values the package's production code stores into package variable
// g: a test's stand-in (HTTPClient = retryable.StandardClient() in a test) is not what users
// run.
func (st *state) prodGlobals(g *ssa.Global) []ssa.Value {
	var out []ssa.Value
	for _, v := range st.stores.Globals[g] {
		if !testcode.Made(st.pass, v) && !st.storedByTest(v) {
			out = append(out, v)
		}
	}
	return out
}

// storedOnlyWhenGiven reports whether every store of v into field fv is onlyWhenGiven.
func storedOnlyWhenGiven(v ssa.Value, fv *types.Var) bool {
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	found := false
	for _, r := range *refs {
		st, ok := r.(*ssa.Store)
		if !ok || st.Val != v {
			continue
		}
		fa, ok := st.Addr.(*ssa.FieldAddr)
		if !ok || flow.FieldVar(fa) != fv {
			continue
		}
		if !onlyWhenGiven(st) {
			return false
		}
		found = true
	}
	return found
}

// givenThrough is given for a value of an entered frame: a parameter of the entered function
// is what its caller passed, followed up to the function the walk started in.
func givenThrough(x ssa.Value, f *frame) bool {
	for ; f != nil; f = f.parent {
		p, ok := flow.Unwrap(x).(*ssa.Parameter)
		if !ok {
			return false
		}
		a, ok := f.arg(p)
		if !ok {
			return false
		}
		x = a
	}
	return flow.Given(flow.Unwrap(x))
}
