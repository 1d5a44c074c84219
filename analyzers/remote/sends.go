package remote

import (
	"fmt"
	"go/token"
	"go/types"
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
	// MethodArg, URL and Body are Made's method, URL and body arguments (any of the request
	// makers the model knows: net/http's, go-retryablehttp's), when Made is set.
	MethodArg, URL, Body ssa.Value
	// Host is the URL's host when a constant starts the URL ("https://api.example.com" +
	// "/v1/charges"); "" otherwise.
	Host string
	// Last is the last segment of the URL's path when a constant ends the URL, even after a
	// dynamic part (base + "/" + index + "/_count": "_count"); "" otherwise.
	Last string
	// Inner is, for a call of a function of the package that sends the request it is given
	// (a do(req) helper), the send inside it; nil otherwise. Also holds the helper's other
	// sends of that request (Do(req) sending it in its retry callback, or once when retries
	// are off).
	Inner *Send
	Also  []*Send
	// FromParam is the parameter of the sending function (or of the named function whose
	// closure sends) whose request is sent, itself or a copy: a request its callers make
	// (CallAPI(req)); nil otherwise.
	FromParam *ssa.Parameter
	// Resource holds the values that name the resource the URL addresses, when it is built
	// in this function: the parts that follow a constant path segment (base + "/orders/" +
	// id + "/status", fmt.Sprintf("%s/orders/%s", base, id)); none for a constant path.
	Resource []ssa.Value
	// Grant marks a request for an OAuth 2.0 access token: its form body names a grant_type
	// (RFC 6749). Sending it again mints another token and changes nothing else.
	Grant bool
	// Credential marks a POST whose answer the package sends as a credential of its later
	// requests (a login, an API key exchanged for a session token): sending it again mints
	// another session and changes nothing else.
	Credential bool
	// Query marks a request whose body is a GraphQL query document without a mutation
	// ({"query":"query { ... }"}): it reads, whatever the endpoint.
	Query bool
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
	if s.Query {
		return true
	}
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

// The HTTP client libraries' packages, as the retry tables name them.
var (
	restyV2Pkg = knowledge.RestyPaths[0]
	restyV3Pkg = knowledge.RestyPaths[1]
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
	token := knowledge.TokenIssuerClient(st.pass.Pkg.Path()) // x/oauth2: the grant type is its callers'
	add := func(s *Send) {
		s.Keyless = keyless
		s.Grant = s.Grant || token
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
	inner := make(map[*ssa.Function][]*Send)
	var viaParam []*Send
	for round := range 3 {
		for _, s := range res.sends {
			if p, ok := requestParam(s.Request); ok && (p.Parent().Object() != nil || p.Parent().Parent() != nil) {
				i := slices.Index(p.Parent().Params, p)
				if j, seen := sendsParam[p.Parent()]; !seen {
					sendsParam[p.Parent()] = i
					inner[p.Parent()] = []*Send{s}
				} else if j == i && round == 0 && !slices.Contains(inner[p.Parent()], s) {
					inner[p.Parent()] = append(inner[p.Parent()], s)
				}
			}
		}
		found := false
		for _, fn := range funcs {
			for call := range flow.Calls(fn) {
				callee := flow.Generic(call.Common().StaticCallee())
				i, ok := sendsParam[callee]
				if !ok || res.sendBy[call] != nil || i >= len(call.Common().Args) {
					continue
				}
				ins := inner[callee]
				s := &Send{Instr: call, Inner: ins[0], Also: ins[1:]}
				w := st.walker(fn)
				w.request(s, call.Common().Args[i])
				s.Method = w.method(s.Request)
				add(s)
				viaParam = append(viaParam, s)
				found = true
			}
		}
		if !found {
			break
		}
	}
	// A method helper that hands the request it makes to such a function (Call(ctx, method,
	// path, body, v) making it with NewRequest and sending it with Do(req, v)): its callers'
	// calls send with their method.
	for _, s := range st.methodHelpers(viaParam, funcs) {
		if res.sendBy[s.Instr] == nil {
			add(s)
		}
	}
	for _, s := range res.sends {
		if p, ok := requestParam(s.Request); ok && p.Parent().Object() != nil {
			s.FromParam = p
		}
		s.Credential = st.credential(s)
	}
	for fn, i := range sendsParam {
		if obj, ok := fn.Object().(*types.Func); ok && obj.Exported() && fn.Synthetic == "" {
			st.pass.ExportObjectFact(obj, &sentFact{Param: i})
		}
	}
}

// sentFact marks an exported function that sends the request it is handed as parameter Param
// (among its SSA parameters: the receiver first, as in the arguments of a direct call, not of a
// bound method value's): a call of it from another package sends that request.
type sentFact struct {
	Param int
}

func (*sentFact) AFact() {}

func (f *sentFact) String() string { return fmt.Sprintf("sends the request of parameter %d", f.Param) }

// methodHelpers returns the sends made by calls of functions that make the request they send
// (one maker, in the function or in a closure of it such as its retry callback) with a method
// they are given as a parameter: the method is the
// caller's argument, the URL the caller's argument that the request's URL is built from (when
// one string parameter is). A function that hands its own method parameter on to such a
// helper, itself or from a closure (a request(ctx, method, ...) whose retry callback calls
// requestOnce(ctx, method, ...)), is a helper too, its sends those of the call it makes. A
// function's calls of itself (a retrying recursion) are not sends of their own.
func (st *state) methodHelpers(direct []*Send, funcs []*ssa.Function) []*Send {
	type helper struct {
		inner       *Send               // the send inside, for a helper that makes the request
		also        []*Send             // its other sends of that request (a retry's)
		via         ssa.CallInstruction // the helper call inside, for one that hands its method on
		method, url int                 // parameter indices; url -1 when unknown
		urlAt       ssa.Value           // the request's URL, for a helper that makes it
		// field, when set, is the field of the method parameter that holds the method (a
		// request struct's: r := apiRequest{method: http.MethodPost}; r.execute(ctx)).
		field string
	}
	helpers := make(map[*ssa.Function]helper)
	for _, s := range direct {
		if s.Method != "" || s.Request == nil {
			continue
		}
		// The method is a parameter of the function that sends, or of the named function
		// whose closure (its retry callback) makes and sends the request; the request made
		// there or by a function of the package it calls (req, err := c.newRequest(method,
		// path, body)).
		var p *ssa.Parameter
		var u ssa.Value
		field := ""
		if s.Made != nil {
			p, u = passedParam(st.requestArg(s.Made.Common(), 0)), st.requestArg(s.Made.Common(), 1)
		} else {
			p, field, u = st.methodParam(s)
		}
		if p == nil || p.Parent().Object() == nil || !flow.Encloses(p.Parent(), s.Instr.Parent()) {
			continue
		}
		fn := p.Parent()
		if h, seen := helpers[fn]; seen {
			if h.inner != nil && h.method == slices.Index(fn.Params, p) && h.field == field {
				h.also = append(h.also, s) // sent again, made the same way (a retry after the first try)
				helpers[fn] = h
			}
			continue
		}
		url := -1
		if u != nil {
			url = urlParam(fn, u)
		}
		helpers[fn] = helper{inner: s, method: slices.Index(fn.Params, p), url: url, field: field, urlAt: u}
	}
	// calls returns the calls of a helper from another function, with the helper.
	type helperCall struct {
		fn   *ssa.Function
		call ssa.CallInstruction
		h    helper
		args []ssa.Value
	}
	calls := func() []helperCall {
		var out []helperCall
		for _, fn := range funcs {
			for call := range flow.Calls(fn) {
				callee := call.Common().StaticCallee()
				h, ok := helpers[callee]
				args := call.Common().Args
				if ok && callee != fn && h.method < len(args) {
					out = append(out, helperCall{fn, call, h, args})
				}
			}
		}
		return out
	}
	for range 3 {
		found := false
		for _, hc := range calls() {
			p := passedParam(hc.args[hc.h.method])
			callee := hc.call.Common().StaticCallee()
			if p == nil || p.Parent().Object() == nil || p.Parent() == callee || hc.h.field == "" && !typeis.String(p.Type()) {
				continue
			}
			if _, seen := helpers[p.Parent()]; seen {
				continue
			}
			g := p.Parent()
			url := -1
			if hc.h.url >= 0 && hc.h.url < len(hc.args) {
				url = urlParam(g, hc.args[hc.h.url])
			}
			helpers[g] = helper{via: hc.call, method: slices.Index(g.Params, p), url: url, field: hc.h.field}
			found = true
		}
		if !found {
			break
		}
	}
	// urlAt returns the parts of the URL a call of a helper sends to: the helpers it hands the
	// request on to, in frames that map their parameters to the call's arguments.
	var urlAt func(w *walker, call ssa.CallInstruction, f *frame) []urlPart
	urlAt = func(w *walker, call ssa.CallInstruction, f *frame) []urlPart {
		callee := call.Common().StaticCallee()
		h, ok := helpers[callee]
		depth := 1
		if f != nil {
			depth = f.depth + 1
		}
		if !ok || depth > maxDepth {
			return nil
		}
		fr := &frame{fn: callee, args: call.Common().Args, parent: f, depth: depth}
		if h.via != nil {
			return urlAt(w, h.via, fr)
		}
		if h.urlAt == nil {
			return nil
		}
		return w.urlParts(h.urlAt, fr)
	}
	var out []*Send
	byCall := make(map[ssa.CallInstruction]*Send)
	for _, hc := range calls() {
		w := st.walker(hc.fn)
		method := hc.args[hc.h.method]
		if hc.h.field != "" {
			method = storedField(method, hc.h.field)
		}
		s := &Send{Instr: hc.call, Inner: hc.h.inner, Also: hc.h.also}
		if method != nil {
			s.Method = strings.ToUpper(w.str(method, nil, 0))
		}
		if hc.h.url >= 0 && hc.h.url < len(hc.args) {
			w.urlText(s, hc.args[hc.h.url])
		}
		s.Resource = resource(urlAt(w, hc.call, nil)) // the whole path, prefixes included
		out = append(out, s)
		byCall[hc.call] = s
	}
	for _, s := range out {
		if h := helpers[s.Instr.Common().StaticCallee()]; h.via != nil {
			s.Inner = byCall[h.via]
		}
	}
	return out
}

// urlParam returns the index of the one string parameter of fn that v is built from (-1 when
// none, -2 when several).
func urlParam(fn *ssa.Function, v ssa.Value) int {
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

// methodParam returns the parameter of the sending function (or of the named function its
// closure is in) that the method of the request s sends comes from, when the one function of
// the package that makes it (a newRequest(method, path, body) helper) is handed it, and the
// value in the sending function that the request's URL is built from (nil when unknown);
// nil, nil otherwise.
func (st *state) methodParam(s *Send) (method *ssa.Parameter, field string, url ssa.Value) {
	seen := make(map[*ssa.CallCommon]bool)
	agree, sameURL := true, true // every maker takes the method from the same parameter (the URL too)
	st.walker(s.Instr.Parent()).makers(s.Request, nil, 0, func(c *ssa.CallCommon, f *frame) {
		seen[c] = true
		first := len(seen) == 1
		prevMethod, prevField, prevURL := method, field, url
		m, u := st.requestArg(c, 0), st.requestArg(c, 1)
		field = ""
		if fv, base := paramField(m); fv != "" {
			m, field = base, fv // http.NewRequest(r.method, ...): the field of the request struct r
		}
		for ; f != nil && m != nil; f = f.parent {
			if capturedBy(m, f.fn) {
				// A closure that makes the request from its function's variables (buildRequest
				// := func() { http.NewRequest(method, url, body) }), called where it is made.
				m = flow.Captured(m)
				if capturedBy(u, f.fn) {
					u = flow.Captured(u)
				}
				continue
			}
			q, ok := flow.Unwrap(m).(*ssa.Parameter)
			if !ok {
				m = nil
				break
			}
			m, _ = f.arg(q)
			// The URL: the argument for the one string parameter it is built from.
			if u == nil {
				continue
			}
			if i := urlParam(f.fn, u); i >= 0 && i < len(f.args) {
				u = f.args[i]
			} else {
				u = nil
			}
		}
		method, url = nil, nil
		if m != nil {
			method, url = passedParam(m), u
		}
		if !first && (method != prevMethod || field != prevField) {
			agree = false
		}
		if !first && url != prevURL {
			url, sameURL = nil, false
		}
		if !sameURL {
			url = nil
		}
	})
	// One maker, reached by every way (return req, err and return req, nil), or several that
	// agree (a body or none: two http.NewRequest(method, u, ...) calls for one request).
	if len(seen) == 0 || !agree {
		return nil, "", nil
	}
	return method, field, url
}

// capturedBy reports whether v is a variable closure fn captures, or a load of one.
func capturedBy(v ssa.Value, fn *ssa.Function) bool {
	v = flow.Unwrap(v)
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		v = load.X
	}
	fv, ok := v.(*ssa.FreeVar)
	return ok && fv.Parent() == fn
}

// paramField returns the name of the field of a parameter that v loads (r.method, with r a
// request struct, by pointer or by value) and that parameter; "", nil otherwise.
func paramField(v ssa.Value) (string, ssa.Value) {
	switch x := flow.Unwrap(v).(type) {
	case *ssa.UnOp:
		if _, fa := flow.FieldLoad(x); fa != nil && flow.FieldVar(fa) != nil {
			if _, isParam := flow.Captured(fa.X).(*ssa.Parameter); isParam {
				return flow.FieldVar(fa).Name(), fa.X
			}
		}
	case *ssa.Field:
		if _, isParam := flow.Captured(x.X).(*ssa.Parameter); isParam {
			if st, ok := x.X.Type().Underlying().(*types.Struct); ok && x.Field < st.NumFields() {
				return st.Field(x.Field).Name(), x.X
			}
		}
	}
	return "", nil
}

// storedField returns the one value stored into field name of the struct v is (a local
// r := apiRequest{method: http.MethodPost}, by address or loaded by value, or a copy of such a
// literal), or nil.
func storedField(v ssa.Value, name string) ssa.Value {
	for range 4 {
		v = flow.Unwrap(v)
		if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
			v = load.X
		}
		a, ok := v.(*ssa.Alloc)
		if !ok {
			return nil
		}
		st, ok := a.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
		if !ok {
			return nil
		}
		field := -1
		for i := range st.NumFields() {
			if st.Field(i).Name() == name {
				field = i
			}
		}
		if field < 0 {
			return nil
		}
		// The field's stores and the whole struct's (r := apiRequest{...}: the literal,
		// copied in): one, or the model does not say which reaches the call.
		vals := flow.FieldStores(a, field)
		if len(vals) != 1 {
			return nil
		}
		if !types.Identical(vals[0].Type(), a.Type().Underlying().(*types.Pointer).Elem()) {
			return vals[0] // the field's own store
		}
		v = vals[0]
	}
	return nil
}

// passedParam returns the parameter of a named function that v is, itself or as a closure's
// captured copy of it (the retry callback inside the function), or nil.
func passedParam(v ssa.Value) *ssa.Parameter {
	p, _ := flow.Captured(v).(*ssa.Parameter)
	return p
}

// requestParam returns the parameter a request sent is made from: the parameter itself (or
// captured by a closure of its function: the retry callback of Do(req)), or one that
// copiedRequest copies (rreq, _ := retryablehttp.FromRequest(r);
// client.Do(rreq.WithContext(ctx))) or a function of the package copies (CopiedParam).
func requestParam(v ssa.Value) (*ssa.Parameter, bool) {
	for range 8 {
		v = flow.Unwrap(v)
		if ex, ok := v.(*ssa.Extract); ok && ex.Index == 0 {
			v = ex.Tuple
		}
		switch x := v.(type) {
		case *ssa.Parameter:
			return x, true
		case *ssa.FreeVar, *ssa.UnOp:
			// The request a retry callback sends is its function's parameter, captured (a
			// variable a closure shares is loaded from its box).
			p := passedParam(x)
			return p, p != nil
		case *ssa.Call:
			from, ok := copiedRequest(x.Common())
			if !ok {
				if from = CopiedParam(x.Common()); from == nil {
					return nil, false
				}
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
	var sent sentFact
	switch {
	case c != nil && c.Kind == HTTP && c.Via != nil && directCall(call) && fn.Pkg() != st.pass.Pkg &&
		st.pass.ImportObjectFact(fn, &sent) && sent.Param < len(call.Common().Args):
		// Another package's function that sends the request it is handed (ctxhttp.Do(ctx,
		// client, req)).
		w.request(s, call.Common().Args[sent.Param])
		s.Method = w.method(s.Request)
	case c != nil && c.Kind == HTTP && c.Via != nil && !c.Via.Request:
		return nil // through a function that sends a request of its own with this context: see sends
	case c != nil && c.Kind == HTTP && c.Via != nil && fn.Pkg() == st.pass.Pkg:
		return nil // a function of the package that sends the request it is given: see sends
	case (id.Pkg == restyV2Pkg || id.Pkg == restyV3Pkg) && id.Recv == "Request":
		s.Request = site.Recv
		s.Grant = grantChain(site.Recv)
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
	case c != nil && c.Kind == HTTP:
		s.Method = c.Method
		if id.Name == "Do" || id.Name == "RoundTrip" {
			w.request(s, site.Arg(0))
		} else {
			w.url(s, site.Arg(0))
		}
		if id.Pkg == knowledge.HTTPPath && id.Name == "PostForm" {
			s.Grant = grantForm(site.Arg(1))
		}
	case id.Pkg == knowledge.RetryableHTTPPath && (id.Recv == "Client" || id.Recv == ""):
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
	default:
		return nil
	}
	return s
}

// directCall reports whether call names its function itself (a method with its receiver among
// the arguments), not through a func value or an interface.
func directCall(call ssa.CallInstruction) bool {
	_, ok := call.Common().Value.(*ssa.Function)
	return ok
}

// request fills in what a send learns from the request it sends: the value, its path, and
// the call that made it when that is one call in the same function.
func (w *walker) request(s *Send, req ssa.Value) {
	s.Request = req
	var makers []*ssa.CallCommon
	path, last, host, same := "", "", "", true
	ok := w.makers(req, nil, 0, func(c *ssa.CallCommon, f *frame) {
		p, l, h := w.urlPath(w.st.requestArg(c, 1), f, 0), w.lastSegment(w.st.requestArg(c, 1), f), w.urlHost(w.st.requestArg(c, 1), f, 0)
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
		s.Resource = resource(w.urlParts(w.st.requestArg(makers[0], 1), nil))
		s.Grant = grantForm(w.st.requestArg(makers[0], 2))
		s.Query = graphQLQuery(w.st.requestArg(makers[0], 2))
		for instr := range flow.Calls(s.Instr.Parent()) {
			if instr.Common() == makers[0] {
				s.Made = instr
				s.MethodArg, s.URL, s.Body = w.st.requestArg(makers[0], 0), w.st.requestArg(makers[0], 1), w.st.requestArg(makers[0], 2)
			}
		}
	}
}
