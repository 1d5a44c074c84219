package remote

import (
	"go/token"
	"net/url"
	"strings"
	"unicode"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

// What a send's URL says: its host, its path, its last segment, the resource it names.

// url fills in what a send learns from the URL v it is given.
func (w *walker) url(s *Send, v ssa.Value) {
	w.urlText(s, v)
	s.Resource = resource(w.urlParts(v, nil))
}

// urlText fills in what the constants of the URL v say: its path, last segment and host.
func (w *walker) urlText(s *Send, v ssa.Value) {
	s.Path, s.Last, s.Host = w.urlPath(v, nil, 0), w.lastSegment(v, nil), w.urlHost(v, nil, 0)
}

// urlHost returns the host of the URL v when a constant starts it: a constant URL, a constant
// base that the rest is appended to ("https://api.example.com" + "/v1/charges"), the text
// before the first verb of a fmt.Sprintf format ("https://api.example.com/v1/%s"), or the
// default of a field or variable (the one constant URL the package stores there).
func (w *walker) urlHost(v ssa.Value, f *frame, depth int) string {
	if v == nil || depth > 8 {
		return ""
	}
	if s := w.str(v, f, depth); s != "" {
		return hostOf(s)
	}
	if stored := w.st.stores.Loaded(flow.Unwrap(v)); len(stored) > 0 {
		// A field or variable: the host of the one constant the package stores there, its
		// default (options may store others: the default is what most users run).
		host := ""
		for _, x := range stored {
			if h := hostOf(w.str(x, nil, depth+1)); h != "" {
				if host != "" && h != host {
					return ""
				}
				host = h
			}
		}
		return host
	}
	switch x := flow.Unwrap(v).(type) {
	case *ssa.BinOp:
		if x.Op == token.ADD {
			return w.urlHost(x.X, f, depth+1)
		}
	case *ssa.Call:
		if flow.ID(flow.Callee(x.Common())) == (flow.FuncID{Pkg: "fmt", Name: "Sprintf"}) && len(x.Call.Args) >= 1 {
			if lits, ok := formatLiterals(w.str(x.Call.Args[0], f, depth+1)); ok && len(lits) > 0 {
				return hostOf(lits[0])
			}
		}
	}
	return ""
}

// hostOf returns the host of a URL, or of the start of one ("https://api.example.com/v1/");
// "" when s has no scheme or no host.
func hostOf(s string) string {
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok {
		return ""
	}
	host, _, _ := strings.Cut(rest, "/")
	if u, err := url.Parse(scheme + "://" + host); err == nil {
		return u.Host
	}
	return ""
}

// lastSegment returns the last segment of the path of the URL v when a constant ends it: a
// constant URL, a constant appended to anything (base + "/" + index + "/_count"), or the
// text after the last verb of a fmt.Sprintf format; "" otherwise.
func (w *walker) lastSegment(v ssa.Value, f *frame) string {
	tail := w.urlTail(v, f, 0)
	tail, _, _ = strings.Cut(tail, "?")
	tail, _, _ = strings.Cut(tail, "#")
	tail = strings.TrimSuffix(tail, "/")
	i := strings.LastIndex(tail, "/")
	if i < 0 || strings.HasSuffix(tail[:i+1], "://") {
		return "" // no path segment in the constant, or only the host
	}
	return tail[i+1:]
}

// urlTail returns the constant text that ends the URL v: the whole URL when it is a constant,
// the constant added last (base + "/check"), the last literal of a format, what follows the
// last placeholder of a template filled in with strings.Replace ("/stores/{id}/check" with
// "{id}" replaced), and the tail of the text a url.URL was parsed from when its path is not
// changed after. "" when nothing constant ends it.
func (w *walker) urlTail(v ssa.Value, f *frame, depth int) string {
	if s := w.str(v, f, 0); s != "" || v == nil || depth > 8 {
		return s
	}
	switch x := flow.Unwrap(v).(type) {
	case *ssa.Parameter:
		if a, ok := f.arg(x); ok {
			return w.urlTail(a, f.parent, depth+1)
		}
	case *ssa.Phi:
		return sameOnEvery(x.Edges, func(e ssa.Value) string { return w.urlTail(e, f, depth+1) })
	case *ssa.BinOp:
		if x.Op == token.ADD {
			return w.urlTail(x.Y, f, depth+1)
		}
	case *ssa.Call:
		id, args := flow.ID(flow.Callee(x.Common())), x.Call.Args
		switch {
		case id == (flow.FuncID{Pkg: "fmt", Name: "Sprintf"}) && len(args) >= 1:
			if lits, ok := formatLiterals(w.str(args[0], f, 0)); ok && len(lits) > 1 {
				return lits[len(lits)-1]
			}
		case id.Pkg == "strings" && (id.Name == "Replace" || id.Name == "ReplaceAll") && len(args) >= 3:
			old := w.str(args[1], f, 0)
			if old == "" {
				return ""
			}
			tail := w.urlTail(args[0], f, depth+1)
			if i := strings.LastIndex(tail, old); i >= 0 {
				return tail[i+len(old):] // what follows the last placeholder
			}
			return tail
		case id == (flow.FuncID{Pkg: "net/url", Recv: "URL", Name: "String"}) && len(args) == 1:
			if parsed, ok := flow.Unwrap(args[0]).(*ssa.Extract); ok && parsed.Index == 0 && !pathChanged(args[0]) {
				if c, ok := parsed.Tuple.(*ssa.Call); ok && flow.ID(flow.Callee(c.Common())) == (flow.FuncID{Pkg: "net/url", Name: "Parse"}) {
					return w.urlTail(c.Call.Args[0], f, depth+1)
				}
			}
		}
	}
	return ""
}

// pathChanged reports whether the path of the url.URL u points to is set after it was made
// (u.Path = ..., u.RawPath = ..., u.JoinPath(...)).
func pathChanged(u ssa.Value) bool {
	refs := u.Referrers()
	if refs == nil {
		return true
	}
	for _, r := range *refs {
		if fa, ok := r.(*ssa.FieldAddr); ok {
			if v := flow.FieldVar(fa); v != nil && (v.Name() == "Path" || v.Name() == "RawPath" || v.Name() == "Opaque") {
				return true
			}
		}
	}
	return joined(u)
}

// joined reports whether a function of net/url other than String and Query is called on the
// url.URL u points to (JoinPath, ResolveReference, UnmarshalBinary): its path is then not the
// one it was made with.
func joined(u ssa.Value) bool {
	refs := u.Referrers()
	if refs == nil {
		return true
	}
	for _, r := range *refs {
		if c, ok := r.(ssa.CallInstruction); ok {
			if id := flow.ID(flow.Callee(c.Common())); id.Pkg == "net/url" && id.Name != "String" && id.Name != "Query" {
				return true
			}
		}
	}
	return false
}

// urlPath returns the path of the URL v when constants say it: a constant URL
// ("https://api.example.com/v1/charges", "/v1/charges"), a constant path appended to a base
// (base + "/v1/charges"), or fmt.Sprintf("%s/v1/charges", base).
func (w *walker) urlPath(v ssa.Value, f *frame, depth int) string {
	if v == nil || depth > 8 {
		return ""
	}
	if s := w.str(v, f, depth); s != "" {
		return pathOf(s)
	}
	switch x := flow.Unwrap(v).(type) {
	case *ssa.BinOp:
		if x.Op != token.ADD {
			return ""
		}
		if s := w.str(x.Y, f, depth); strings.HasPrefix(s, "/") {
			prefix := w.urlPath(x.X, f, depth+1)
			if strings.HasPrefix(prefix, "/") {
				return strings.TrimSuffix(prefix, "/") + pathOf(s)
			}
			if left, ok := flow.Unwrap(x.X).(*ssa.BinOp); ok && left.Op == token.ADD {
				return "" // base + "/v1/payments/" + id + "/capture": not a constant path
			}
			return pathOf(s)
		}
	case *ssa.Call:
		if flow.ID(flow.Callee(x.Common())) == (flow.FuncID{Pkg: "fmt", Name: "Sprintf"}) && len(x.Call.Args) == 2 {
			format := w.str(x.Call.Args[0], f, depth)
			if rest, ok := strings.CutPrefix(format, "%s"); ok && strings.HasPrefix(rest, "/") && !strings.Contains(rest, "%") {
				return pathOf(rest)
			}
		}
	}
	return ""
}

// formatLiterals splits a format into the literal text around its verbs (n verbs, n+1
// literals); false for formats it does not read (%*d, %[1]s).
func formatLiterals(format string) ([]string, bool) {
	var lits []string
	var cur strings.Builder
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			cur.WriteByte(format[i])
			continue
		}
		if i+1 < len(format) && format[i+1] == '%' {
			cur.WriteByte('%')
			i++
			continue
		}
		j := i + 1
		for j < len(format) && !unicode.IsLetter(rune(format[j])) {
			if format[j] == '*' || format[j] == '[' {
				return nil, false
			}
			j++
		}
		lits = append(lits, cur.String())
		cur.Reset()
		i = j
	}
	return append(lits, cur.String()), true
}

// collection reports whether a constant ending a URL before an identifier ends with a
// collection segment ("/v1/orders/"): not a version, "api" or the host.
func collection(s string) bool {
	rest, ok := strings.CutSuffix(s, "/")
	if !ok || strings.ContainsAny(rest, "?#=") {
		return false
	}
	if _, after, hasScheme := strings.Cut(rest, "://"); hasScheme && !strings.Contains(after, "/") {
		return false // "https://host/"
	}
	seg := rest[strings.LastIndex(rest, "/")+1:]
	if seg == "" || seg == "api" || len(seg) > 1 && seg[0] == 'v' && strings.Trim(seg[1:], "0123456789") == "" {
		return false
	}
	return true
}

// action reports whether s is one path segment naming an action on a resource ("/capture",
// "/status", "/cancel"), not a collection under it ("/charges", "/comments").
func action(s string) bool {
	s, _, _ = strings.Cut(s, "?")
	seg, ok := strings.CutPrefix(s, "/")
	if !ok || seg == "" || strings.Contains(seg, "/") {
		return false
	}
	return !strings.HasSuffix(seg, "s") || seg == "status" || seg == "process" || seg == "progress" || seg == "access"
}

// pathOf returns the path of a constant URL or path, without its query.
func pathOf(s string) string {
	if strings.Contains(s, "://") {
		u, err := url.Parse(s)
		if err != nil {
			return ""
		}
		if u.Path == "/" {
			return ""
		}
		return u.Path
	}
	if s, _, _ = strings.Cut(s, "?"); !strings.HasPrefix(s, "/") || s == "/" {
		return ""
	}
	return s
}
