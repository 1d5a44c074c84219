package remote

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
)

// credential reports whether the answer to the POST s becomes a credential of the package's
// later requests: the function that sends it decodes the answer into a value whose field the
// package sends as a request header (an Authorization, a custom auth-token header, basic
// auth), or stores a field of it into a field it sends so. Such a POST is a login or a token
// exchange: sent again, it mints another session and changes nothing else.
func (st *state) credential(s *Send) bool {
	resp, ok := s.Instr.(ssa.Value)
	if !ok || s.Method != "POST" {
		return false
	}
	sent := st.headerFields()
	if len(sent) == 0 {
		return false
	}
	for call := range flow.Calls(s.Instr.Parent()) {
		if !knowledge.Decodes(flow.Callee(call.Common())) {
			continue
		}
		var into *ssa.Alloc
		intoField := false // decoded straight into a field the package sends (Decode(&c.token))
		from := false      // the decoder reads this send's answer
		site := call.Common()
		vals := append([]ssa.Value{site.Value}, site.Args...)
		for _, a := range vals {
			if mi, ok := a.(*ssa.MakeInterface); ok {
				if al, ok := mi.X.(*ssa.Alloc); ok {
					into = al
					continue
				}
				if fa, ok := mi.X.(*ssa.FieldAddr); ok {
					intoField = intoField || sent[flow.FieldVar(fa)]
					continue
				}
			}
			flow.Backward(a, 32, func(x ssa.Value) bool {
				from = from || x == resp
				return !from
			})
		}
		if from && (intoField || into != nil && credentialValue(into, sent)) {
			return true
		}
	}
	return false
}

// credentialValue reports whether the decoded value at a has a field in sent, or a field of it
// is stored into a field in sent (c.token = out.AccessToken).
func credentialValue(a *ssa.Alloc, sent map[*types.Var]bool) bool {
	if st, ok := a.Type().(*types.Pointer).Elem().Underlying().(*types.Struct); ok {
		for f := range st.Fields() {
			if sent[f.Origin()] {
				return true
			}
		}
	}
	for _, r := range *a.Referrers() {
		fa, ok := r.(*ssa.FieldAddr)
		if !ok || fa.Referrers() == nil {
			continue
		}
		for _, l := range *fa.Referrers() {
			load, ok := l.(*ssa.UnOp)
			if !ok || load.Referrers() == nil {
				continue
			}
			for _, u := range *load.Referrers() {
				if store, ok := u.(*ssa.Store); ok && store.Val == load {
					if to, ok := store.Addr.(*ssa.FieldAddr); ok && sent[flow.FieldVar(to)] {
						return true
					}
				}
			}
		}
	}
	return false
}

// headerFields returns, once per package, the struct fields whose values the package sends as
// credentials of its requests: the fields loaded on the way to the value of a header it sets
// (req.Header.Set("Authorization", "Bearer "+c.auth.AccessToken): AccessToken and auth), of
// Request.SetBasicAuth, or of resty's SetAuthToken and SetHeader. Headers that describe the
// content or make a request conditional (Content-Type, Accept, If-Match with a version the
// answer gave) carry no credential.
func (st *state) headerFields() map[*types.Var]bool {
	if st.sentFields != nil {
		return st.sentFields
	}
	st.sentFields = make(map[*types.Var]bool)
	for _, fn := range st.funcs {
		for call := range flow.Calls(fn) {
			id := flow.ID(flow.Callee(call.Common()))
			args := call.Common().Args
			var vals []ssa.Value
			switch {
			case id.Pkg == knowledge.HTTPPath && id.Recv == "Header" && (id.Name == "Set" || id.Name == "Add") && len(args) == 3:
				if name, _, ok := flow.HeaderSet(call); ok && describesContent(name) {
					continue
				}
				vals = args[2:]
			case id.Pkg == knowledge.HTTPPath && id.Recv == "Request" && id.Name == "SetBasicAuth" && len(args) == 3:
				vals = args[1:]
			case (id.Pkg == restyV2Pkg || id.Pkg == restyV3Pkg) && (id.Name == "SetAuthToken" || id.Name == "SetHeader") && len(args) >= 2:
				if id.Name == "SetHeader" && len(args) == 3 {
					if name, ok := flow.StringConst(args[1]); ok && describesContent(name) {
						continue
					}
				}
				vals = args[len(args)-1:]
			default:
				continue
			}
			for _, v := range vals {
				flow.Backward(v, 32, func(x ssa.Value) bool {
					switch x := x.(type) {
					case *ssa.FieldAddr:
						if f := flow.FieldVar(x); f != nil {
							st.sentFields[f] = true
						}
					case *ssa.Field:
						if s, ok := x.X.Type().Underlying().(*types.Struct); ok && x.Field < s.NumFields() {
							st.sentFields[s.Field(x.Field).Origin()] = true
						}
					}
					return true
				})
			}
		}
	}
	return st.sentFields
}

// describesContent reports whether a request header describes the request's content or what
// answer it takes, or makes it conditional: its value is no credential.
func describesContent(name string) bool {
	n := strings.ToLower(name)
	return strings.HasPrefix(n, "content-") || strings.HasPrefix(n, "accept") || strings.HasPrefix(n, "if-") ||
		n == "user-agent" || n == "range" || n == "idempotency-key"
}
