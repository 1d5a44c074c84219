package remote

import (
	"go/token"
	"net/url"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// Sends: the HTTP requests a package sends, through net/http or through the clients built on it
// (go-retryablehttp, resty), with the method and path when the model can tell them. The checks
// that care whether a retried request is a POST ask here.

// A Send is an HTTP request sent by a call.
type Send struct {
	Instr ssa.CallInstruction
	// Method is the HTTP method ("POST"), from the function called (http.Post, resty's
	// Request.Patch) or from the constants the request is made with; "" when unknown.
	Method string
	// Path is the URL's path when constants say it: a constant URL, or a constant
	// "/v1/charges" appended to a base ("" otherwise).
	Path string
	// Request is the request value sent (an *http.Request, a *retryablehttp.Request, a
	// *resty.Request); nil when the call makes its own (http.Post, Client.PostForm).
	Request ssa.Value
	// Made is the call that made the request (http.NewRequest, retryablehttp.NewRequest), when
	// every path to the send leads to that one call in the same function.
	Made ssa.CallInstruction
	// Host is the URL's host when a constant starts the URL ("https://api.example.com" +
	// "/v1/charges"); "" otherwise.
	Host string
	// Last is the last segment of the URL's path when a constant ends the URL, even after a
	// dynamic part (base + "/" + index + "/_count": "_count"); "" otherwise.
	Last string
	// Inner is, for a call of a function of the package that sends the request it is given
	// (a do(req) helper), the send inside it; nil otherwise.
	Inner *Send
	// Resource holds the values that name the resource the URL addresses, when it is built
	// in this function: the parts that follow a constant path segment (base + "/orders/" +
	// id + "/status", fmt.Sprintf("%s/orders/%s", base, id)); none for a constant path.
	Resource []ssa.Value
	// Grant marks a request for an OAuth 2.0 access token: its form body names a grant_type
	// (RFC 6749). Sending it again mints another token and changes nothing else.
	Grant bool
	// Keyless marks a request of an API that takes no idempotency key and whose writes name
	// what they change: the Docker Engine API, sent by a client of the local daemon
	// (knowledge.LocalDaemon).
	Keyless bool
}

// ChangesState reports whether an HTTP method is one whose request, sent again, may act again:
// POST and PATCH (PUT and DELETE are idempotent by definition).
func ChangesState(method string) bool { return method == "POST" || method == "PATCH" }

// Asks reports whether the request asks a question rather than acting: a POST whose path
// ends in a segment that names a read (POST /v1/orders/search, base + "/check",
// /index/_count), which APIs use for a question too large or too private for a URL.
// Sending it again changes nothing. A constant must end the URL (see Last).
func (s *Send) Asks() bool {
	last := strings.ToLower(strings.TrimPrefix(s.Last, "_")) // Elasticsearch's _search
	if queryVerbs[last] {
		return true
	}
	// A verb and its object: list-objects, list_users, listUsers.
	verb, _, _ := strings.Cut(last, "-")
	verb, _, _ = strings.Cut(verb, "_")
	if i := strings.IndexFunc(s.Last, unicode.IsUpper); i > 0 && verb == last {
		verb = strings.ToLower(s.Last[:i])
	}
	return verb != last && queryVerbs[verb]
}

// queryVerbs are the last path segments of requests that read: searches, lookups, checks
// and validations, estimates and previews, dry runs.
var queryVerbs = map[string]bool{
	"search": true, "msearch": true, "query": true, "lookup": true, "find": true, "match": true,
	"count": true, "mget": true, "explain": true, "check": true, "validate": true,
	"verify": true, "estimate": true, "preview": true, "simulate": true, "calculate": true,
	"evaluate": true, "dry-run": true, "dryrun": true, "read": true, "list": true, "get": true,
	"expand": true,
}

// Sends returns the HTTP requests the package sends, in source order: by the calls that send
// them, and by the calls of functions of the package that send a request they are given.
func (r *Result) Sends() []*Send { return r.sends }

// SendOf returns the HTTP request that instr sends, or nil.
func (r *Result) SendOf(instr ssa.Instruction) *Send {
	c, ok := instr.(ssa.CallInstruction)
	if !ok || r == nil {
		return nil
	}
	return r.sendBy[c]
}

const (
	retryablehttpPkg = "github.com/hashicorp/go-retryablehttp"
	restyV2Pkg       = "github.com/go-resty/resty/v2"
	restyV3Pkg       = "resty.dev/v3"
)

// methodNames are the methods that the name of a sending function or method fixes.
var methodNames = map[string]string{
	"Get": "GET", "Head": "HEAD", "Post": "POST", "PostForm": "POST", "Put": "PUT", "Patch": "PATCH",
	"Delete": "DELETE", "Options": "OPTIONS",
}

// sends finds the package's HTTP sends: the calls that send a request themselves, then the
// calls of functions of the package that send a request they are given (a do(req) helper that
// adds headers and calls Client.Do), judged by the request at each call.
func (st *state) sends(res *Result, funcs []*ssa.Function) {
	keyless := knowledge.LocalDaemon(st.pass.Pkg.Path())
	add := func(s *Send) {
		s.Keyless = keyless
		res.sends = append(res.sends, s)
		res.sendBy[s.Instr] = s
	}
	for _, fn := range funcs {
		for call := range flow.Calls(fn) {
			if s := st.send(call, res.byInstr[call]); s != nil {
				add(s)
			}
		}
	}
	// Helpers that make the request they send from a method they are given
	// (c.request(ctx, http.MethodPost, route, body) building and sending it): each call of one
	// from another function sends a request with the caller's method and URL.
	for _, s := range st.methodHelpers(res.sends, funcs) {
		add(s)
	}
	// The parameter whose request a function sends; three rounds for helpers of helpers.
	sendsParam := make(map[*ssa.Function]int)
	inner := make(map[*ssa.Function]*Send)
	for range 3 {
		for _, s := range res.sends {
			if p, ok := requestParam(s.Request); ok && p.Parent().Object() != nil {
				if _, seen := sendsParam[p.Parent()]; !seen {
					sendsParam[p.Parent()] = slices.Index(p.Parent().Params, p)
					inner[p.Parent()] = s
				}
			}
		}
		found := false
		for _, fn := range funcs {
			for call := range flow.Calls(fn) {
				i, ok := sendsParam[call.Common().StaticCallee()]
				if !ok || res.sendBy[call] != nil || i >= len(call.Common().Args) {
					continue
				}
				s := &Send{Instr: call, Inner: inner[call.Common().StaticCallee()]}
				w := st.walker(fn)
				w.request(s, call.Common().Args[i])
				s.Method = w.method(s.Request)
				add(s)
				found = true
			}
		}
		if !found {
			break
		}
	}
}

// methodHelpers returns the sends made by calls of functions that make the request they send
// (one maker, in the function) with a method they are given as a parameter: the method is the
// caller's argument, the URL the caller's argument that the request's URL is built from (when
// one string parameter is). A function that hands its own method parameter on to such a
// helper, itself or from a closure (a request(ctx, method, ...) whose retry callback calls
// requestOnce(ctx, method, ...)), is a helper too, its sends those of the call it makes. A
// function's calls of itself (a retrying recursion) are not sends of their own.
func (st *state) methodHelpers(direct []*Send, funcs []*ssa.Function) []*Send {
	type helper struct {
		inner       *Send               // the send inside, for a helper that makes the request
		via         ssa.CallInstruction // the helper call inside, for one that hands its method on
		method, url int                 // parameter indices; url -1 when unknown
	}
	helpers := make(map[*ssa.Function]helper)
	// urlParam returns the index of the one string parameter of fn that v is built from.
	urlParam := func(fn *ssa.Function, v ssa.Value) int {
		url := -1
		flow.Backward(v, 64, func(x ssa.Value) bool {
			if fv, ok := x.(*ssa.FreeVar); ok {
				if p := passedParam(fv); p != nil {
					x = p
				}
			}
			if q, ok := x.(*ssa.Parameter); ok && q.Parent() == fn && typeis.String(q.Type()) {
				if i := slices.Index(fn.Params, q); url == -1 {
					url = i
				} else if url != i {
					url = -2 // built from several: unknown
				}
			}
			return true
		})
		return url
	}
	for _, s := range direct {
		fn := s.Instr.Parent()
		if s.Made == nil || s.Method != "" || fn.Object() == nil {
			continue
		}
		p, ok := flow.Unwrap(requestArg(s.Made.Common(), 0)).(*ssa.Parameter)
		if !ok || p.Parent() != fn {
			continue
		}
		if _, seen := helpers[fn]; seen {
			continue
		}
		helpers[fn] = helper{inner: s, method: slices.Index(fn.Params, p), url: urlParam(fn, requestArg(s.Made.Common(), 1))}
	}
	for range 3 {
		found := false
		for _, fn := range funcs {
			for call := range flow.Calls(fn) {
				callee := call.Common().StaticCallee()
				h, ok := helpers[callee]
				args := call.Common().Args
				if !ok || callee == fn || h.method >= len(args) {
					continue
				}
				p := passedParam(args[h.method])
				if p == nil || p.Parent().Object() == nil || p.Parent() == callee || !typeis.String(p.Type()) {
					continue
				}
				if _, seen := helpers[p.Parent()]; seen {
					continue
				}
				g := p.Parent()
				url := -1
				if h.url >= 0 && h.url < len(args) {
					url = urlParam(g, args[h.url])
				}
				helpers[g] = helper{via: call, method: slices.Index(g.Params, p), url: url}
				found = true
			}
		}
		if !found {
			break
		}
	}
	var out []*Send
	byCall := make(map[ssa.CallInstruction]*Send)
	for _, fn := range funcs {
		for call := range flow.Calls(fn) {
			callee := call.Common().StaticCallee()
			h, ok := helpers[callee]
			args := call.Common().Args
			if !ok || callee == fn || h.method >= len(args) {
				continue
			}
			w := st.walker(fn)
			s := &Send{Instr: call, Inner: h.inner, Method: strings.ToUpper(w.str(args[h.method], nil, 0))}
			if h.url >= 0 && h.url < len(args) {
				w.url(s, args[h.url])
			}
			out = append(out, s)
			byCall[call] = s
		}
	}
	for _, s := range out {
		if h := helpers[s.Instr.Common().StaticCallee()]; h.via != nil {
			s.Inner = byCall[h.via]
		}
	}
	return out
}

// passedParam returns the parameter of a named function that v is, itself or as a closure's
// captured copy of it (the retry callback inside the function), or nil. A captured variable
// that anything else is stored into is not the parameter.
func passedParam(v ssa.Value) *ssa.Parameter {
	for range 4 {
		switch x := flow.Unwrap(v).(type) {
		case *ssa.Parameter:
			return x
		case *ssa.FreeVar:
			b := flow.Bindings(x)
			if len(b) != 1 {
				return nil
			}
			v = b[0]
			continue
		case *ssa.UnOp: // *method: a captured variable, boxed
			box := x.X
			if fv, ok := box.(*ssa.FreeVar); ok && x.Op == token.MUL {
				if b := flow.Bindings(fv); len(b) == 1 {
					box = b[0]
				}
			}
			if alloc, ok := box.(*ssa.Alloc); ok && x.Op == token.MUL {
				if stored := flow.Stored(alloc); len(stored) == 1 {
					v = stored[0]
					continue
				}
			}
		}
		return nil
	}
	return nil
}

// requestParam returns the parameter a request sent is made from: the parameter itself, or
// one that copiedRequest copies (rreq, _ := retryablehttp.FromRequest(r);
// client.Do(rreq.WithContext(ctx))).
func requestParam(v ssa.Value) (*ssa.Parameter, bool) {
	for range 8 {
		v = flow.Unwrap(v)
		if ex, ok := v.(*ssa.Extract); ok && ex.Index == 0 {
			v = ex.Tuple
		}
		switch x := v.(type) {
		case *ssa.Parameter:
			return x, true
		case *ssa.Call:
			from, ok := copiedRequest(x.Common())
			if !ok {
				return nil, false
			}
			v = from
			continue
		}
		return nil, false
	}
	return nil, false
}

// send returns the HTTP request call sends, or nil: the net/http calls the model knows (c, when
// it is one), go-retryablehttp's Client.Do, Get, Head, Post and PostForm and its package
// functions, and resty's Request.Get, Post, Put, Patch, Delete, Head, Options and Execute.
func (st *state) send(call ssa.CallInstruction, c *Call) *Send {
	fn := flow.Callee(call.Common())
	if fn == nil {
		return nil
	}
	id := flow.ID(fn)
	site := flow.NewSite(call.Common(), fn)
	w := st.walker(call.Parent())
	s := &Send{Instr: call}
	byName := methodNames[id.Name]
	switch {
	case c != nil && c.Kind == HTTP && c.Via != nil && !c.Via.Request:
		return nil // through a function that sends a request of its own with this context: see sends
	case c != nil && c.Kind == HTTP:
		s.Method = c.Method
		if id.Name == "Do" || id.Name == "RoundTrip" {
			w.request(s, site.Arg(0))
		} else {
			w.url(s, site.Arg(0))
		}
		if id.Pkg == httpPkg && id.Name == "PostForm" {
			s.Grant = grantForm(site.Arg(1))
		}
	case id.Pkg == retryablehttpPkg && (id.Recv == "Client" || id.Recv == ""):
		switch {
		case id.Name == "Do" && id.Recv == "Client":
			w.request(s, site.Arg(0))
			s.Method = w.method(site.Arg(0))
		case byName != "" && id.Name != "Put" && id.Name != "Patch" && id.Name != "Delete" && id.Name != "Options":
			s.Method = byName
			w.url(s, site.Arg(0))
		default:
			return nil
		}
	case (id.Pkg == restyV2Pkg || id.Pkg == restyV3Pkg) && id.Recv == "Request":
		s.Request = site.Recv
		switch {
		case byName != "" && id.Name != "PostForm":
			s.Method = byName
			w.url(s, site.Arg(0))
		case id.Name == "Execute":
			s.Method = strings.ToUpper(w.str(site.Arg(0), nil, 0))
			w.url(s, site.Arg(1))
		default:
			return nil
		}
	default:
		return nil
	}
	return s
}

// url fills in what a send learns from the URL v it is given.
func (w *walker) url(s *Send, v ssa.Value) {
	s.Path, s.Last, s.Resource = w.urlPath(v, nil, 0), w.lastSegment(v, nil), w.resource(v)
	s.Host = w.urlHost(v, nil, 0)
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
		switch r := r.(type) {
		case *ssa.FieldAddr:
			if v := flow.FieldVar(r); v != nil && (v.Name() == "Path" || v.Name() == "RawPath" || v.Name() == "Opaque") {
				return true
			}
		case ssa.CallInstruction:
			if id := flow.ID(flow.Callee(r.Common())); id.Pkg == "net/url" && id.Name != "String" && id.Name != "Query" {
				return true // JoinPath, ResolveReference, UnmarshalBinary
			}
		}
	}
	return false
}

// request fills in what a send learns from the request it sends: the value, its path, and
// the call that made it when that is one call in the same function.
func (w *walker) request(s *Send, req ssa.Value) {
	s.Request = req
	var makers []*ssa.CallCommon
	path, last, host, same := "", "", "", true
	ok := w.makers(req, nil, 0, func(c *ssa.CallCommon, f *frame) {
		p, l, h := w.urlPath(requestArg(c, 1), f, 0), w.lastSegment(requestArg(c, 1), f), w.urlHost(requestArg(c, 1), f, 0)
		if len(makers) > 0 && (p != path || l != last || h != host) {
			same = false
		}
		path, last, host = p, l, h
		if f == nil {
			makers = append(makers, c)
		}
	})
	if ok && same {
		s.Path, s.Last, s.Host = path, last, host
	}
	if ok && len(makers) == 1 {
		s.Resource = w.resource(requestArg(makers[0], 1))
		s.Grant = grantForm(requestArg(makers[0], 2))
		for instr := range flow.Calls(s.Instr.Parent()) {
			if instr.Common() == makers[0] {
				s.Made = instr
			}
		}
	}
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

// resource returns the value that names the resource the URL v addresses when the request
// acts on that one resource: the URL ends with an identifier that follows a collection
// segment, or with one action segment after it (base + "/orders/" + id + "/status",
// fmt.Sprintf("%s/payments/%s/capture", base, id)). Nothing when the URL goes on to a
// collection under it ("/customers/" + id + "/charges"), when the segment before is a
// version, "api" or the host, or when the path is constant.
func (w *walker) resource(v ssa.Value) []ssa.Value {
	if v == nil {
		return nil
	}
	var parts []ssa.Value
	var flatten func(v ssa.Value, depth int)
	flatten = func(v ssa.Value, depth int) {
		if b, ok := flow.Unwrap(v).(*ssa.BinOp); ok && b.Op == token.ADD && depth < 16 {
			flatten(b.X, depth+1)
			flatten(b.Y, depth+1)
			return
		}
		parts = append(parts, v)
	}
	flatten(v, 0)
	if len(parts) > 1 {
		for i := len(parts) - 1; i >= 1; i-- {
			if _, isConst := flow.StringConst(parts[i]); isConst {
				continue
			}
			// The last dynamic part: the identifier, if a collection precedes it and at most
			// an action follows.
			after := ""
			if i+1 < len(parts) {
				after = w.str(parts[i+1], nil, 0)
			}
			if i+2 >= len(parts) && collection(w.str(parts[i-1], nil, 0)) && (after == "" && i+1 == len(parts) || action(after)) {
				return []ssa.Value{parts[i]}
			}
			return nil
		}
		return nil
	}
	call, ok := flow.Unwrap(v).(*ssa.Call)
	if !ok || flow.ID(flow.Callee(call.Common())) != (flow.FuncID{Pkg: "fmt", Name: "Sprintf"}) || len(call.Call.Args) != 2 {
		return nil
	}
	format := w.str(call.Call.Args[0], nil, 0)
	args, _ := flow.Elems(call.Call.Args[1])
	lits, ok := formatLiterals(format)
	if !ok || len(lits) < 2 || len(lits)-1 != len(args) {
		return nil
	}
	last := len(lits) - 1 // lits[last] follows the last verb
	if collection(lits[last-1]) && (lits[last] == "" || action(lits[last])) {
		return []ssa.Value{args[last-1]}
	}
	return nil
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
