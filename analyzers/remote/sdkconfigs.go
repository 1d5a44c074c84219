package remote

import (
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
)

// SDK configurations: aws-sdk-go-v2 makes every service client from one aws.Config, which
// holds the HTTP client they all send through. A configuration loaded without one is a single
// cause for every client made from it, reported once where it is loaded; a configuration given
// an HTTP client bounds its clients as that client does, which the model leaves to the team.

// A Config is an SDK configuration loaded without an HTTP client: its clients send through the
// SDK's default, which has no overall timeout.
type Config struct {
	Type string // "aws.Config"
	// Pos is the load call when it is in this package; NoPos otherwise.
	Pos token.Pos
	// From says where one loaded in another package comes from, for messages.
	From string
	// Option is the load option that gives it an HTTP client: "config.WithHTTPClient".
	Option string
}

// configFact marks a function that returns an SDK configuration loaded without an HTTP client
// (in its package or further up): the clients its callers make from it are the loader's
// finding, not theirs.
type configFact struct {
	Index int
	From  string // "the aws.Config loaded at aws.go:76"
}

func (*configFact) AFact() {}

func (f *configFact) String() string { return fmt.Sprintf("result %d is %s", f.Index, f.From) }

// cfgKind is what the model knows of the configuration a value holds.
type cfgKind uint8

const (
	cfgUnknown cfgKind = iota // from a parameter, or options it cannot read: anything
	cfgClient                 // given an HTTP client (by option or field)
	cfgDefault                // loaded without one
)

// configOf says which configuration of kind spec v holds: loaded here without an HTTP client
// (cfg.Pos set), loaded so in another package (cfg.From set), given a client, or unknown.
func (st *state) configOf(v ssa.Value, spec *knowledge.SDKConfig) (cfgKind, *Config) {
	seen := make(map[ssa.Value]bool)
	kind, found := cfgDefault, (*Config)(nil)
	add := func(k cfgKind, c *Config) {
		switch {
		case kind == cfgClient || k == cfgClient:
			kind = cfgClient
		case k == cfgUnknown || found != nil && c != nil && *found != *c:
			kind = cfgUnknown
		case c != nil:
			found = c
		}
	}
	var walk func(v ssa.Value, idx, depth int)
	walk = func(v ssa.Value, idx, depth int) {
		v = flow.Unwrap(v)
		if seen[v] || kind == cfgClient {
			return
		}
		seen[v] = true
		if depth > 16 {
			add(cfgUnknown, nil)
			return
		}
		switch v := v.(type) {
		case *ssa.Const:
			// nil: not a configuration.
		case *ssa.Extract:
			walk(v.Tuple, v.Index, depth+1)
		case *ssa.Phi:
			for _, e := range v.Edges {
				walk(e, idx, depth+1)
			}
		case *ssa.Call:
			fn := flow.Callee(v.Common())
			callee := v.Call.StaticCallee()
			switch {
			case spec.Loads(fn):
				add(st.loaded(v, spec))
			case callee != nil && callee.Pkg == st.pkg && len(callee.Blocks) > 0:
				for r := range returned(callee, idx) {
					walk(r, 0, depth+1)
				}
			case fn != nil && fn.Pkg() != st.pass.Pkg:
				if f := importFact(st.pass, st.configs, fn); f != nil && f.Index == idx {
					add(cfgDefault, &Config{Type: spec.Display, From: f.From, Option: optionName(spec)})
					return
				}
				add(cfgUnknown, nil)
			default:
				add(cfgUnknown, nil)
			}
		case *ssa.UnOp:
			if v.Op != token.MUL {
				add(cfgUnknown, nil)
				return
			}
			walk(v.X, 0, depth+1)
		case *ssa.Alloc:
			// A local configuration, or one whose address is taken: what is stored into it,
			// unless its HTTP client field is set.
			if st.setsField(v, spec) {
				add(cfgClient, nil)
				return
			}
			for _, s := range flow.Stored(v) {
				if knowledge.ConfigOf(s.Type()) != nil {
					walk(s, 0, depth+1)
				}
			}
		case *ssa.Global:
			if v.Pkg != st.pkg {
				add(cfgUnknown, nil)
				return
			}
			if st.setsField(v, spec) {
				add(cfgClient, nil)
				return
			}
			for _, s := range st.stores.Globals[v] {
				walk(s, 0, depth+1)
			}
		default:
			add(cfgUnknown, nil)
		}
	}
	walk(v, 0, 0)
	if kind != cfgDefault || found == nil {
		if kind == cfgDefault {
			kind = cfgUnknown
		}
		return kind, nil
	}
	return kind, found
}

// loaded judges a load call by its options: given an HTTP client by one, or maybe by one of
// the program's own; loaded without one when every option is another of the SDK's; unknown
// when the options come from elsewhere.
func (st *state) loaded(call *ssa.Call, spec *knowledge.SDKConfig) (cfgKind, *Config) {
	args := call.Call.Args
	if len(args) < 2 {
		return cfgUnknown, nil
	}
	elems, ok := flow.SliceElems(args[len(args)-1])
	if !ok {
		return cfgUnknown, nil
	}
	for _, e := range elems {
		c, isCall := flow.Unwrap(e).(*ssa.Call)
		if !isCall {
			return cfgClient, nil // the program's own option: it may give one
		}
		switch spec.Option(flow.Callee(c.Common())) {
		case knowledge.SetsClient, knowledge.Unknown:
			return cfgClient, nil
		}
	}
	return cfgDefault, &Config{Type: spec.Display, Pos: call.Pos(), Option: optionName(spec)}
}

// setsField reports whether the program sets the HTTP client field of the configuration at
// addr (cfg.HTTPClient = c).
func (st *state) setsField(addr ssa.Value, spec *knowledge.SDKConfig) bool {
	refs := addr.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		if fa, ok := r.(*ssa.FieldAddr); ok {
			if f := flow.FieldVar(fa); f != nil && f.Name() == spec.HTTPField && len(flow.Stored(fa)) > 0 {
				return true
			}
		}
	}
	return false
}

// clientConfig says which configuration the SDK constructor call ctor makes its client from:
// its first argument of a configuration type.
func (st *state) clientConfig(ctor *ssa.Call) (cfgKind, *Config) {
	for _, a := range ctor.Call.Args {
		if spec := knowledge.ConfigOf(a.Type()); spec != nil {
			return st.configOf(a, spec)
		}
	}
	return cfgUnknown, nil
}

// loadedConfigs returns the configurations loaded in this package without an HTTP client that
// its exported functions hand out, and exports a configFact on every function returning one.
func (st *state) loadedConfigs() []*Config {
	var out []*Config
	seen := make(map[token.Pos]bool)
	for _, fn := range st.funcs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || fn.Synthetic != "" || fn.Parent() != nil {
			continue
		}
		res := obj.Signature().Results()
		for i := 0; i < res.Len(); i++ {
			spec := knowledge.ConfigOf(res.At(i).Type())
			if spec == nil {
				continue
			}
			kind, c := cfgDefault, (*Config)(nil)
			for r := range returned(fn, i) {
				k, rc := st.configOf(r, spec)
				if k != cfgDefault || c != nil && *c != *rc {
					kind = cfgUnknown
					break
				}
				c = rc
			}
			if kind != cfgDefault || c == nil {
				continue
			}
			from := c.From
			if c.Pos.IsValid() {
				p := st.pass.Fset.Position(c.Pos)
				from = fmt.Sprintf("the %s loaded at %s:%d", c.Type, filepath.Base(p.Filename), p.Line)
				if obj.Exported() && !seen[c.Pos] {
					seen[c.Pos] = true
					out = append(out, c)
				}
			}
			st.pass.ExportObjectFact(obj, &configFact{Index: i, From: from})
		}
	}
	return out
}

func optionName(spec *knowledge.SDKConfig) string {
	return shortPkg(spec.OptionPkg) + "." + spec.HTTPOption
}
