package remote

import (
	"go/token"
	"go/types"
	"net/url"
	"reflect"
	"regexp"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// Forms: the request bodies that make a POST an OAuth 2.0 token request, or a request for
// temporary credentials (knowledge.CredentialAction).

// grantForm reports whether the request body v is a form that names an OAuth 2.0 grant type
// (knowledge.GrantField): url.Values with that key, set in a literal or by Set or Add, or its
// encoding (strings.NewReader(form.Encode())), or a constant form text that holds it; also
// when a function of the package builds it (body, err := p.tokenParams()).
func grantForm(v ssa.Value) bool { return grantFormIn(v, 0) }

func grantFormIn(v ssa.Value, depth int) bool {
	found := false
	flow.Backward(v, 32, func(x ssa.Value) bool {
		switch x := x.(type) {
		case *ssa.Call:
			if callee := x.Call.StaticCallee(); depth < 2 && callee != nil && callee.Pkg != nil && callee.Pkg == x.Parent().Pkg {
				for ret := range flow.Returns(callee) {
					for _, r := range ret.Results {
						if !typeis.ErrorLike(r.Type()) && grantFormIn(r, depth+1) {
							found = true
						}
					}
				}
			}
		case *ssa.Const:
			if t, ok := flow.StringConst(x); ok && (strings.Contains(t, knowledge.GrantField+"=") || credentialText(t)) {
				found = true
			}
		case *ssa.MakeMap:
			found = found || setsGrant(x)
		case *ssa.Alloc:
			if p, ok := x.Type().Underlying().(*types.Pointer); ok && grantStruct(p.Elem()) {
				found = true // a JSON body marshalled from a struct with a grant type field
			}
			// A form whose address is handed on (addParams(&form, ...)): what its loads get.
			if p, ok := x.Type().Underlying().(*types.Pointer); ok && isForm(p.Elem()) {
				for _, r := range *x.Referrers() {
					if load, ok := r.(*ssa.UnOp); ok && load.Op == token.MUL {
						found = found || setsGrant(load)
					}
				}
			}
		}
		return !found
	})
	return found
}

// credentialText reports whether a constant form text asks only for temporary credentials
// (Action=AssumeRole&Version=2011-06-15).
func credentialText(t string) bool {
	q, _ := url.ParseQuery(t)
	for k, vs := range q {
		for _, v := range vs {
			if knowledge.CredentialAction(k, v) {
				return true
			}
		}
	}
	return false
}

// grantPair reports whether a form entry, key set to val, makes the request one for a token
// (the grant type, whatever its value) or for temporary credentials (knowledge.CredentialAction).
func grantPair(key, val ssa.Value) bool {
	k, ok := flow.StringConst(key)
	if !ok {
		return false
	}
	if knowledge.IsGrantField(k) {
		return true
	}
	v, ok := flow.StringConst(flow.Unwrap(val))
	return ok && knowledge.CredentialAction(k, v)
}

// isForm reports whether t is url.Values, or map[string][]string.
func isForm(t types.Type) bool { return t.Underlying().String() == "map[string][]string" }

// setsGrant reports whether form, a url.Values value, is given the grant type field, in its
// literal or by Set or Add.
func setsGrant(form ssa.Value) bool {
	if !isForm(form.Type()) || form.Referrers() == nil {
		return false
	}
	if namesGrant(form) {
		return true
	}
	for _, r := range *form.Referrers() {
		switch r := r.(type) {
		case ssa.CallInstruction:
			id := flow.ID(flow.Callee(r.Common()))
			if args := r.Common().Args; id.Pkg == "net/url" && id.Recv == "Values" && (id.Name == "Set" || id.Name == "Add") && len(args) > 2 {
				if grantPair(args[1], args[2]) {
					return true
				}
			}
		}
	}
	return false
}

// grantChain reports whether a resty request, built by a chain of its setters, is given a body
// or form data that names the grant type (SetFormData(map[string]string{"grant_type": ...}),
// SetBody(map[string]any{"grant_type": ...}), SetBody(&tokenRequest{...}) with a field tagged
// json:"grant_type"): a request for an OAuth 2.0 access token.
func grantChain(req ssa.Value) bool {
	found := false
	flow.Backward(req, 32, func(x ssa.Value) bool {
		if c, ok := x.(*ssa.Call); ok {
			for _, a := range c.Call.Args {
				switch a := flow.Unwrap(a).(type) {
				case *ssa.MakeMap:
					found = found || namesGrant(a)
				case *ssa.Alloc:
					p, ok := a.Type().Underlying().(*types.Pointer)
					found = found || ok && grantStruct(p.Elem())
				}
			}
		}
		return !found
	})
	return found
}

// namesGrant reports whether the map m is given the grant type as a key where it is made.
func namesGrant(m ssa.Value) bool {
	if m.Referrers() == nil {
		return false
	}
	for _, r := range *m.Referrers() {
		if u, ok := r.(*ssa.MapUpdate); ok {
			if grantPair(u.Key, u.Value) {
				return true
			}
		}
	}
	return false
}

// grantStruct reports whether t is a struct with a field whose JSON name is the grant type
// (GrantType string `json:"grant_type"`): a token request's body.
func grantStruct(t types.Type) bool {
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := range st.NumFields() {
		name, _, _ := strings.Cut(reflect.StructTag(st.Tag(i)).Get("json"), ",")
		if knowledge.IsGrantField(name) {
			return true
		}
	}
	return false
}

// graphQLDocument matches the start of a GraphQL request's JSON body: its "query" member, and
// the document's first token, an operation keyword or a selection set.
var graphQLDocument = regexp.MustCompile(`"query"\s*:\s*"\s*(query|mutation|subscription|\{)`)

// graphQLQuery reports whether body, a request's body, is made from text that holds a GraphQL
// query document and names no mutation: a query reads, sent again it changes nothing.
func graphQLQuery(body ssa.Value) bool {
	query, mutation := false, false
	flow.Backward(body, 256, func(x ssa.Value) bool {
		if t, ok := flow.StringConst(x); ok {
			if m := graphQLDocument.FindStringSubmatch(t); m != nil {
				query = query || m[1] == "query" || m[1] == "{"
				mutation = mutation || m[1] != "query" && m[1] != "{"
			}
			mutation = mutation || strings.Contains(t, "mutation")
		}
		return true
	})
	return query && !mutation
}
