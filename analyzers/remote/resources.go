package remote

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

// Which resource a send's URL names: the URL is read as a run of constant text and values
// known only at run time, however it is built, and cut into path segments.

// A urlPart is a piece of a URL: constant text, or a value known only at run time.
type urlPart struct {
	text string
	val  ssa.Value
	// opaque marks a value that may hold several segments: one that differs between the
	// ways to it, or a box whose stores are not read.
	opaque bool
	// self stands for the variable being read, in a value stored into it (u += "?ttl=1").
	self bool
}

// urlParts flattens the URL v: concatenation, fmt.Sprintf, path.Join, url.JoinPath and
// (*url.URL).JoinPath, a url.URL's String (its Path), url.PathEscape of a value, a parameter
// through the frame's arguments, a closure's captured variable, and a variable or phi whose
// values differ only in their query. Anything else is one value.
func (w *walker) urlParts(v ssa.Value, f *frame) []urlPart {
	return w.parts(v, f, 0, make(map[ssa.Value]bool))
}

func (w *walker) parts(v ssa.Value, f *frame, depth int, reading map[ssa.Value]bool) []urlPart {
	if v == nil || depth > 16 {
		return []urlPart{{val: v, opaque: true}}
	}
	if s, ok := flow.StringConst(v); ok {
		return []urlPart{{text: s}}
	}
	one := []urlPart{{val: flow.Unwrap(v)}}
	switch x := flow.Unwrap(v).(type) {
	case *ssa.Parameter:
		if a, ok := f.arg(x); ok {
			return w.parts(a, f.parent, depth+1, reading)
		}
	case *ssa.FreeVar:
		if c := flow.Captured(x); c != nil {
			return w.parts(c, f, depth+1, reading)
		}
	case *ssa.UnOp:
		if x.Op != token.MUL {
			break
		}
		box := x.X
		if fv, ok := box.(*ssa.FreeVar); ok {
			if b := flow.Bindings(fv); len(b) == 1 {
				box = b[0]
			}
		}
		if _, ok := box.(*ssa.Alloc); !ok {
			break
		}
		if reading[box] {
			return []urlPart{{self: true}}
		}
		reading[box] = true
		defer delete(reading, box)
		return w.either(flow.StoredWithClosures(box), v, f, depth, reading)
	case *ssa.Phi:
		return w.either(x.Edges, v, f, depth, reading)
	case *ssa.BinOp:
		if x.Op == token.ADD {
			return append(w.parts(x.X, f, depth+1, reading), w.parts(x.Y, f, depth+1, reading)...)
		}
	case *ssa.Extract:
		if c, ok := x.Tuple.(*ssa.Call); ok && x.Index == 0 &&
			flow.ID(flow.Callee(c.Common())) == (flow.FuncID{Pkg: "net/url", Name: "JoinPath"}) && len(c.Call.Args) == 2 {
			return w.joined(append(w.parts(c.Call.Args[0], f, depth+1, reading), urlPart{text: "/"}), c.Call.Args[1], f, depth, reading)
		}
	case *ssa.Call:
		id, args := flow.ID(flow.Callee(x.Common())), x.Call.Args
		switch {
		case id == (flow.FuncID{Pkg: "fmt", Name: "Sprintf"}) && len(args) == 2:
			return w.formatted(x, f, depth, reading)
		case id == (flow.FuncID{Pkg: "path", Name: "Join"}) && len(args) == 1:
			return w.joined(nil, args[0], f, depth, reading)
		case id == (flow.FuncID{Pkg: "net/url", Name: "PathEscape"}) && len(args) == 1:
			// One segment, whatever it holds: the value that names the resource.
			if p := w.parts(args[0], f, depth+1, reading); len(p) == 1 && !p[0].opaque && !p[0].self {
				return p
			}
			return []urlPart{{val: flow.Unwrap(args[0])}}
		case id == (flow.FuncID{Pkg: "net/url", Recv: "URL", Name: "String"}) && len(args) == 1:
			return w.urlValue(args[0], f, depth, reading)
		}
	}
	return one
}

// either returns the parts that every one of vals gives, ignoring what follows a query and
// values that only append to the variable being read; one opaque value when they differ.
func (w *walker) either(vals []ssa.Value, v ssa.Value, f *frame, depth int, reading map[ssa.Value]bool) []urlPart {
	var got []urlPart
	n := 0
	for _, e := range vals {
		p := pathParts(w.parts(e, f, depth+1, reading))
		if len(p) > 0 && p[0].self && len(p) == 1 {
			continue // u += "?ttl=..."
		}
		if n > 0 && !slices.Equal(p, got) {
			return []urlPart{{val: v, opaque: true}}
		}
		got, n = p, n+1
	}
	if n == 0 {
		return []urlPart{{val: v, opaque: true}}
	}
	return got
}

// formatted returns the parts of a fmt.Sprintf call: its format's text around its verbs' values.
func (w *walker) formatted(call *ssa.Call, f *frame, depth int, reading map[ssa.Value]bool) []urlPart {
	format, ok := flow.StringConst(call.Call.Args[0])
	if !ok {
		format = w.str(call.Call.Args[0], f, 0)
	}
	args, argsOK := flow.Elems(call.Call.Args[1])
	lits, litsOK := formatLiterals(format)
	if format == "" || !argsOK || !litsOK || len(lits)-1 != len(args) {
		return []urlPart{{val: call, opaque: true}}
	}
	var out []urlPart
	for i, lit := range lits {
		out = append(out, urlPart{text: lit})
		if i < len(args) {
			out = append(out, w.parts(args[i], f, depth+1, reading)...)
		}
	}
	return out
}

// joined appends to prefix the elements of the variadic slice elems, separated by slashes.
func (w *walker) joined(prefix []urlPart, elems ssa.Value, f *frame, depth int, reading map[ssa.Value]bool) []urlPart {
	vals, ok := flow.Elems(elems)
	if !ok {
		return append(prefix, urlPart{val: elems, opaque: true})
	}
	out := prefix
	for i, e := range vals {
		if i > 0 {
			out = append(out, urlPart{text: "/"})
		}
		out = append(out, w.parts(e, f, depth+1, reading)...)
	}
	return out
}

// urlValue returns the parts of the *url.URL u: the Path of a url.URL literal, the text a
// url.Parse read, or what JoinPath appends to another.
func (w *walker) urlValue(u ssa.Value, f *frame, depth int, reading map[ssa.Value]bool) []urlPart {
	opaque := []urlPart{{val: u, opaque: true}}
	switch x := flow.Unwrap(u).(type) {
	case *ssa.Alloc:
		elem := x.Type().Underlying().(*types.Pointer).Elem()
		st, ok := elem.Underlying().(*types.Struct)
		if !ok {
			return opaque
		}
		for i := range st.NumFields() {
			if st.Field(i).Name() != "Path" {
				continue
			}
			// The literal's stores; a whole-struct zero is the memclear before them.
			stored := slices.DeleteFunc(flow.FieldStores(x, i), func(v ssa.Value) bool {
				c, ok := v.(*ssa.Const)
				return ok && types.Identical(c.Type(), elem)
			})
			if len(stored) != 1 || joined(x) {
				return opaque
			}
			if load, ok := stored[0].(*ssa.UnOp); ok && load.Op == token.MUL && types.Identical(load.Type(), elem) {
				return w.urlValue(load.X, f, depth+1, reading) // u := url.URL{...}: a copy
			}
			return w.parts(stored[0], f, depth+1, reading)
		}
	case *ssa.Extract:
		if c, ok := x.Tuple.(*ssa.Call); ok && x.Index == 0 && !pathChanged(u) &&
			flow.ID(flow.Callee(c.Common())) == (flow.FuncID{Pkg: "net/url", Name: "Parse"}) {
			return w.parts(c.Call.Args[0], f, depth+1, reading)
		}
	case *ssa.Call:
		if flow.ID(flow.Callee(x.Common())) == (flow.FuncID{Pkg: "net/url", Recv: "URL", Name: "JoinPath"}) && len(x.Call.Args) == 2 {
			return w.joined(append(w.urlValue(x.Call.Args[0], f, depth+1, reading), urlPart{text: "/"}), x.Call.Args[1], f, depth, reading)
		}
	}
	return opaque
}

// pathParts returns the parts up to the URL's query or fragment, with adjacent text joined.
func pathParts(parts []urlPart) []urlPart {
	var out []urlPart
	for _, p := range parts {
		if p.val != nil || p.self {
			out = append(out, p)
			continue
		}
		text, _, query := strings.Cut(p.text, "?")
		text, _, fragment := strings.Cut(text, "#")
		if n := len(out); n > 0 && out[n-1].val == nil && !out[n-1].self {
			out[n-1].text += text
		} else if text != "" {
			out = append(out, urlPart{text: text})
		}
		if query || fragment {
			break
		}
	}
	return out
}

// A segment is one segment of a URL's path: its text, and the values in it.
type segment struct {
	text   string
	vals   []ssa.Value
	opaque bool
}

// segments cuts a URL's parts into the segments of its path; the scheme and host of a
// constant start are dropped.
func segments(parts []urlPart) []segment {
	parts = pathParts(parts)
	if len(parts) > 0 && parts[0].val == nil && !parts[0].self {
		if _, rest, ok := strings.Cut(parts[0].text, "://"); ok {
			_, path, _ := strings.Cut(rest, "/")
			parts = append([]urlPart{{text: "/" + path}}, parts[1:]...)
		}
	}
	var segs []segment
	cur := segment{}
	flush := func() {
		if cur.text != "" || len(cur.vals) > 0 || cur.opaque {
			segs = append(segs, cur)
		}
		cur = segment{}
	}
	for _, p := range parts {
		if p.val != nil || p.self {
			cur.vals = append(cur.vals, p.val)
			cur.opaque = cur.opaque || p.opaque || p.self
			continue
		}
		for i, s := range strings.Split(p.text, "/") {
			if i > 0 {
				flush()
			}
			cur.text += s
		}
	}
	flush()
	return segs
}

// resource returns the values that name the resource the URL v addresses when the request
// acts on that one resource: its last segment that holds a value follows a collection
// segment, and the constant segments after it, if any, name a part of it or an action
// (base + "/orders/" + id + "/status", fmt.Sprintf("%s/payments/%s/capture", base, id),
// path.Join("/v1/machines", id, "metadata", "role")). Nothing when the URL goes on to a
// collection under it ("/customers/" + id + "/charges", "/zones/" + id + "/records/bulk"), when the segment before is a
// version, "api" or the host, when the value may hold several segments, or when the path is
// constant.
func resource(parts []urlPart) []ssa.Value {
	segs := segments(parts)
	for i := len(segs) - 1; i >= 0; i-- {
		s := segs[i]
		if len(s.vals) == 0 {
			continue
		}
		if s.opaque || i == 0 || len(segs[i-1].vals) > 0 || !collection(segs[i-1].text+"/") {
			return nil
		}
		for _, after := range segs[i+1:] {
			if !action("/" + after.text) {
				return nil // a collection under it: records/bulk
			}
		}
		return s.vals
	}
	return nil
}
