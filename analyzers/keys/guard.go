package keys

import (
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

// A Flow is a generated value followed forward: where it is sent and where it is kept.
type Flow struct {
	Gen      Generation
	Sinks    []Sink // the idempotency sinks it reaches
	Returned bool   // it flows to its function's results
	kept     map[place]bool
	r        *Result
}

// Follow walks g's fresh value forward through its function and the functions it is passed to.
func (r *Result) Follow(g Generation) *Flow {
	var gen ssa.CallInstruction
	if g.Seed != g.Call.Value() {
		gen = g.Call
	}
	w := r.walkFrom(g.Seed, gen)
	return &Flow{Gen: g, Sinks: w.sinks, Returned: w.returned, kept: w.kept, r: r}
}

// String summarises the flow for debug reports: "uuid.NewString: sent as header
// "Idempotency-Key"; fills in a missing key", "rand.Read: not sent as a key".
func (f *Flow) String() string {
	var b strings.Builder
	b.WriteString(f.Gen.Name + ": ")
	if len(f.Sinks) == 0 {
		b.WriteString("not sent as a key")
	}
	for i, s := range f.Sinks {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("sent as " + s.What)
	}
	if f.Returned {
		b.WriteString("; returned")
	}
	if f.FillsIn(anywhere) {
		b.WriteString("; fills in a missing key")
	}
	return b.String()
}

// FillsIn reports whether the generation only runs when the key's own destination is empty:
// `if key == "" { key = uuid.NewString() }`, `if req.Header.Get("Idempotency-Key") == ""`,
// `if p.IdempotencyKey == nil`, `if _, ok := h["Idempotency-Key"]; !ok`, or when a value the
// caller gave for that destination is missing (`if p.Key != nil { h.Set(K, *p.Key) } else {
// h.Set(K, uuid.NewString()) }`). Such code makes a key once and reuses it. A test of anything
// else (an error, a response, an unrelated lookup) guards nothing about the key. Only tests in
// blocks for which within holds count.
func (f *Flow) FillsIn(within func(*ssa.BasicBlock) bool) bool {
	b := f.Gen.Call.Block()
	for d := b.Idom(); d != nil; d = d.Idom() {
		if !within(d) {
			return false
		}
		if len(d.Instrs) == 0 || len(d.Succs) != 2 {
			continue
		}
		ifInstr, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		branch, tested := emptyTest(ifInstr.Cond)
		if branch < 0 || !d.Succs[branch].Dominates(b) || d.Succs[1-branch].Dominates(b) {
			continue
		}
		p, ok := readPlace(tested)
		if !ok {
			continue
		}
		if f.kept[p] || f.kept[p.deref()] || f.sameDestination(p, b.Parent()) {
			return true // the key's own place, the pointer to it, or the caller's key for it
		}
	}
	return false
}

// sameDestination reports whether what fn reads from place p is sent where the generated key
// is kept: the tested value is the caller's key for the same destination.
func (f *Flow) sameDestination(p place, fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			v, ok := instr.(ssa.Value)
			if !ok {
				continue
			}
			if q, ok := readPlace(v); !ok || q != p || q.Root == v {
				continue
			}
			for k := range f.r.walk(v).kept {
				if f.kept[k] {
					return true
				}
			}
		}
	}
	return false
}

// emptyTest returns which branch of cond (0: true, 1: false) is taken when a value is empty,
// and that value: x == "", x == nil, len(x) == 0, !ok of a map lookup or type assertion, and
// their negations. It returns -1 when cond is not such a test.
func emptyTest(cond ssa.Value) (int, ssa.Value) {
	switch c := cond.(type) {
	case *ssa.UnOp:
		if c.Op == token.NOT {
			if e, v := emptyTest(c.X); e >= 0 {
				return 1 - e, v
			}
		}
	case *ssa.Extract:
		if c.Index == 1 {
			switch c.Tuple.(type) {
			case *ssa.Lookup, *ssa.TypeAssert:
				return 1, c // ok is false when the entry is missing
			}
		}
	case *ssa.BinOp:
		if c.Op != token.EQL && c.Op != token.NEQ {
			return -1, nil
		}
		x, y := c.X, c.Y
		if _, ok := x.(*ssa.Const); ok {
			x, y = y, x
		}
		k, ok := y.(*ssa.Const)
		if !ok {
			return -1, nil
		}
		empty := k.IsNil()
		if s, ok := flow.StringConst(k); ok && s == "" {
			empty = true
		}
		if n, ok := flow.IntConst(k); ok && n == 0 {
			if call, ok := x.(*ssa.Call); ok && len(call.Call.Args) == 1 {
				if b, ok := call.Call.Value.(*ssa.Builtin); ok && b.Name() == "len" {
					empty, x = true, call.Call.Args[0]
				}
			}
		}
		if !empty {
			return -1, nil
		}
		if c.Op == token.EQL {
			return 0, x
		}
		return 1, x
	}
	return -1, nil
}

// A place is where a value is kept (flow.Place) and, for a map or header, the normalised
// entry name.
type place struct {
	flow.Place
	entry string // a map key or header name, normalised; "" for variables and fields
}

// deref is the place that p points to.
func (p place) deref() place {
	return place{Place: flow.Place{Root: p.Root, Path: p.Path + "*"}, entry: p.entry}
}

// addrPlace returns the place an address or value denotes.
func addrPlace(v ssa.Value) place { return place{Place: flow.PlaceOf(v)} }

// readPlace returns the place that v reads: a variable or field it loads, a map entry it
// looks up (also as the ok of a comma-ok lookup), a header or metadata entry read back with
// Get or Values under a constant name, or v itself (a value kept in an SSA register, such as
// a parameter that a phi merges with a new key).
func readPlace(v ssa.Value) (place, bool) {
	v = flow.Unwrap(v)
	switch x := v.(type) {
	case *ssa.Extract:
		if l, ok := x.Tuple.(*ssa.Lookup); ok {
			return entryPlace(l.X, l.Index)
		}
	case *ssa.Lookup:
		return entryPlace(x.X, x.Index)
	case *ssa.UnOp:
		if x.Op == token.MUL {
			return addrPlace(x.X), true
		}
	case *ssa.Call:
		if fn := flow.Callee(x.Common()); fn != nil && (fn.Name() == "Get" || fn.Name() == "Values") {
			site := flow.NewSite(x.Common(), fn)
			if site.Recv != nil && len(site.Args) == 1 {
				return entryPlace(site.Recv, site.Args[0])
			}
		}
	}
	return place{Place: flow.Place{Root: v}}, true
}

// entryPlace is the place of entry key of map (or header) m, when key is a constant.
func entryPlace(m, key ssa.Value) (place, bool) {
	k, ok := flow.StringConst(key)
	if !ok {
		return place{}, false
	}
	p := addrPlace(m)
	p.entry = Normalize(k)
	return p, true
}

// keep records where the walk sees the value kept: an address it is stored to, a map entry
// or header it is set in, a field that a setter method fills, or the other values a phi
// merges it with (the variable's old value).
func (w *walk) keep(p place) {
	if w.kept == nil {
		w.kept = make(map[place]bool)
	}
	w.kept[p] = true
}

// keepPhi records the edges of a phi the value flows into: a phi merges the values of one
// variable, so `key = uuid.NewString()` under `if key == ""` merges the new key with the
// variable's old value, which the test reads.
func (w *walk) keepPhi(phi *ssa.Phi) {
	for _, e := range phi.Edges {
		if p, ok := readPlace(e); ok {
			w.keep(p)
		}
	}
}

// keepSetter records the field that a setter such as SetIdempotencyKey fills in its
// receiver's struct, so that a test of that field guards it.
func (w *walk) keepSetter(recv ssa.Value, name string) {
	ptr, ok := recv.Type().Underlying().(*types.Pointer)
	if !ok {
		return
	}
	st, ok := ptr.Elem().Underlying().(*types.Struct)
	if !ok {
		return
	}
	want := Normalize(strings.TrimPrefix(strings.TrimPrefix(name, "Set"), "With"))
	for i := range st.NumFields() {
		if Normalize(st.Field(i).Name()) == want {
			p := addrPlace(recv)
			p.Path += "." + strconv.Itoa(i)
			w.keep(p)
		}
	}
}

// keepSink records the entry a header or metadata setter (Set, Add, resty's SetHeader) sends
// the value under, or the field a key setter (SetIdempotencyKey) fills.
func (w *walk) keepSink(call ssa.CallInstruction) {
	fn := flow.Callee(call.Common())
	if fn == nil {
		return
	}
	site := flow.NewSite(call.Common(), fn)
	if site.Recv == nil {
		return
	}
	switch fn.Name() {
	case "Set", "Add", "SetHeader", "AddHeader", "Append":
		if len(site.Args) >= 2 {
			if p, ok := entryPlace(site.Recv, site.Args[0]); ok {
				w.keep(p)
			}
		}
	default:
		w.keepSetter(site.Recv, fn.Name())
	}
}

// anywhere accepts every block: a guard anywhere in the function counts.
func anywhere(*ssa.BasicBlock) bool { return true }
