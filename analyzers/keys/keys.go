package keys

import (
	_ "embed"
	"fmt"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/config"
	"github.com/idemlint/idemlint/analyzers/internal/docs"
	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/guard"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ssapkg"
	"github.com/idemlint/idemlint/analyzers/internal/testcode"
)

//go:embed doc.go
var doc string

// Analyzer computes the key model of a package: its generator functions, the parameters it
// sends to sinks, and the functions that mint a key on every call.
var Analyzer = &analysis.Analyzer{
	Name:       "keys",
	Doc:        docs.MustExtract(doc, "keys"),
	URL:        docs.URL("keys"),
	Requires:   []*analysis.Analyzer{ssapkg.Analyzer, ssapkg.Stores},
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{new(generatorFact), new(sinkParamFact), new(MintsFact)},
	Run:        guard.Run("keys", run),
}

var (
	reportKeys      bool
	extraNames      config.List
	extraGenerators = config.List{Check: func(s string) error { _, err := flow.ParseFunc(s); return err }}
)

func init() {
	Analyzer.Flags.BoolVar(&reportKeys, "report", false, "report every generator call and where its value goes (for debugging the model)")
	Analyzer.Flags.Var(&extraNames, "names", "comma-separated extra idempotency-key names (headers, fields, metadata keys; case and punctuation ignored)")
	Analyzer.Flags.Var(&extraGenerators, "generators", "comma-separated extra functions that make fresh unique values, as pkg/path.Func or pkg/path.Type.Method")
}

// generatorFact marks a function that returns a fresh unique value on every call.
type generatorFact struct{ From string }

func (*generatorFact) AFact()           {}
func (f *generatorFact) String() string { return "generator: " + f.From }

// sinkParamFact marks a function that sends some of its parameters to an idempotency sink.
type sinkParamFact struct {
	Params []int  // indices, receiver excluded
	What   string // the sink, as Sink.What
}

func (*sinkParamFact) AFact() {}
func (f *sinkParamFact) String() string {
	return fmt.Sprintf("sends parameters %v to %s", f.Params, f.What)
}

// MintsFact marks a function that makes a new key and sends it on every call.
type MintsFact struct {
	Generator string // "uuid.NewString at charge.go:12"
	What      string // the sink
}

func (*MintsFact) AFact() {}
func (f *MintsFact) String() string {
	return fmt.Sprintf("mints a key: %s sent as %s", f.Generator, f.What)
}

// A Sink is a place where a value leaves as an idempotency key.
type Sink struct {
	Instr ssa.Instruction
	What  string // `header "Idempotency-Key"`, `field IdempotencyKey`, ...
}

// Result is the key model of one package.
type Result struct {
	pass       *analysis.Pass
	names      map[string]bool
	generators map[flow.FuncID]bool
	paramFlows map[*ssa.Function][]paramFlow // memo: where each function's parameters go
	inProgress map[*ssa.Function]bool
	localGen   map[*ssa.Function]string
	mints      map[*ssa.Function]*MintsFact
	fills      map[*ssa.Function][]Generation // fill-ins that reach a sink (fills.go), by function
	ssaPkg     *ssa.Package
	stores     *flow.Stores // what the package stores in fields and variables
	srcFuncs   []*ssa.Function
	// The package's calls of interface methods, by name (callsOf).
	invokes     map[string][]ssa.CallInstruction
	invokesOnce sync.Once
}

func run(pass *analysis.Pass) (any, error) {
	ssaRes := pass.ResultOf[ssapkg.Analyzer].(*buildssa.SSA)
	r := &Result{
		pass:       pass,
		names:      make(map[string]bool),
		generators: make(map[flow.FuncID]bool),
		paramFlows: make(map[*ssa.Function][]paramFlow),
		inProgress: make(map[*ssa.Function]bool),
		localGen:   make(map[*ssa.Function]string),
		mints:      make(map[*ssa.Function]*MintsFact),
		fills:      make(map[*ssa.Function][]Generation),
		ssaPkg:     ssaRes.Pkg,
		stores:     pass.ResultOf[ssapkg.Stores].(*flow.Stores),
		srcFuncs:   ssaRes.SrcFuncs,
	}
	for _, n := range append(knowledge.KeyNames, extraNames.Values()...) {
		r.names[Normalize(n)] = true
	}
	for _, g := range knowledge.KeyGenerators {
		r.generators[g] = true
	}
	for _, g := range extraGenerators.Values() {
		id, err := flow.ParseFunc(g)
		if err != nil {
			return nil, err
		}
		r.generators[id] = true
	}
	r.infer(ssaRes.SrcFuncs) // none for the standard library
	if reportKeys {
		for _, fn := range ssaRes.SrcFuncs {
			for _, g := range r.generations(fn) {
				pass.Reportf(g.Call.Pos(), "%s", r.Follow(g))
			}
		}
	}
	return r, nil
}

// IsName reports whether name (a header, field, metadata key or JSON key) names an
// idempotency key: one of the names, or a vendor's form of one (K6-Idempotency-Key,
// Stripe-Idempotency-Key: a prefix and "Idempotency-Key" or "Idempotency-Token").
func (r *Result) IsName(name string) bool {
	n := Normalize(name)
	return r.names[n] || strings.HasSuffix(n, "idempotencykey") || strings.HasSuffix(n, "idempotencytoken")
}

// FreshIn reports whether v is computed from a fresh unique value made at a position for
// which in holds (inside a retry scope): the result of a generator call, or what one fills.
func (r *Result) FreshIn(v ssa.Value, in func(token.Pos) bool) bool {
	fresh := false
	flow.Backward(v, 256, func(x ssa.Value) bool {
		if call, ok := x.(*ssa.Call); ok && in(call.Pos()) {
			_, fresh = r.Generator(call)
		}
		return !fresh
	})
	return fresh
}

// A Generation is a call that makes a fresh unique value.
type Generation struct {
	Call ssa.CallInstruction
	Seed ssa.Value // the fresh value: the call's result, or the buffer it fills
	Name string    // "uuid.NewString"
}

// Generator reports whether call makes a fresh unique value: it returns one (uuid.NewString,
// a function of this package or another that wraps a generator), or it fills a buffer with
// random bytes (crypto/rand.Read, io.ReadFull(rand.Reader, b), rand.Reader.Read, math/rand's
// Read), in which case the fresh value is the buffer.
func (r *Result) Generator(call ssa.CallInstruction) (Generation, bool) {
	c := call.Common()
	if from := r.storedGenerator(c); from != "" && call.Value() != nil {
		return Generation{Call: call, Seed: call.Value(), Name: from}, true
	}
	fn := flow.Callee(c)
	if fn == nil {
		return Generation{}, false
	}
	if buf, name, ok := filledBuffer(c, fn); ok {
		return Generation{Call: call, Seed: buf, Name: name}, true
	}
	v := call.Value()
	if v == nil {
		return Generation{}, false
	}
	id := flow.ID(fn)
	name := flow.Name(fn, r.pass.Pkg)
	if r.generators[id] || knowledge.RandomNumber(id) {
		return Generation{Call: call, Seed: v, Name: name}, true
	}
	if callee := c.StaticCallee(); callee != nil && r.localGen[callee] != "" {
		return Generation{Call: call, Seed: v, Name: name}, true
	}

	if fn.Pkg() != nil && fn.Pkg() != r.pass.Pkg {
		var f generatorFact
		if r.pass.ImportObjectFact(fn, &f) {
			return Generation{Call: call, Seed: v, Name: name}, true
		}
	}
	return Generation{}, false
}

// storedGenerator returns the generator that a call of a function value runs, when the value
// is loaded from a struct field or package variable into which the package's production code
// stores only generator functions of its own (c.uid() where the constructor sets c.uid = uid
// by default, and uid returns uuid.NewString()); "" otherwise.
func (r *Result) storedGenerator(c *ssa.CallCommon) string {
	if c.IsInvoke() || c.StaticCallee() != nil {
		return ""
	}
	from := ""
	for _, v := range r.stores.Loaded(c.Value) {
		if testcode.Made(r.pass, v) {
			continue // a test's stand-in
		}
		fn, ok := v.(*ssa.Function)
		if !ok || r.localGen[fn] == "" {
			return ""
		}
		from = r.localGen[fn]
	}
	return from
}

// identifier reports whether call makes a fresh unique value that identifies (a UUID, random
// bytes, a wrapper of one), not a time (time.Now, directly or through the package's wrappers):
// two requests made in the same instant may carry the same time.
func (r *Result) identifier(call ssa.CallInstruction) bool {
	g, ok := r.Generator(call)
	if !ok {
		return false
	}
	from := g.Name
	if callee := call.Common().StaticCallee(); callee != nil && r.localGen[callee] != "" {
		from = r.localGen[callee]
	} else if fn := flow.Callee(call.Common()); fn != nil && fn.Pkg() != nil && fn.Pkg() != r.pass.Pkg {
		var f generatorFact
		if r.pass.ImportObjectFact(fn, &f) {
			from = f.From
		}
	}
	return !strings.HasPrefix(from, "time.")
}

// filledBuffer returns the buffer that a call fills with random bytes, and how to name the
// call: crypto/rand.Read(b), io.ReadFull(rand.Reader, b), io.ReadAtLeast(rand.Reader, b, n),
// rand.Reader.Read(b), math/rand.Read(b), (*math/rand.Rand).Read(b), and math/rand/v2's
// (*ChaCha8).Read(b). A buffer sliced from a local array (raw[:]) is the array, so that the
// array's other slices and loads carry the value too.
func filledBuffer(c *ssa.CallCommon, fn *types.Func) (ssa.Value, string, bool) {
	id := flow.ID(fn)
	site := flow.NewSite(c, fn)
	var buf ssa.Value
	name := flow.Name(fn, nil)
	switch {
	case id.Name != "Read" && id.Name != "ReadFull" && id.Name != "ReadAtLeast":
		return nil, "", false
	case (id.Pkg == "crypto/rand" || id.Pkg == "math/rand") && id.Recv == "" && len(site.Args) == 1:
		buf = site.Args[0]
	case id.Pkg == "math/rand" && id.Recv == "Rand" && len(site.Args) == 1,
		id.Pkg == "math/rand/v2" && id.Recv == "ChaCha8" && len(site.Args) == 1:
		buf = site.Args[0]
	case id.Pkg == "io" && id.Recv == "" && id.Name != "Read" && len(site.Args) >= 2 && isCryptoReader(site.Args[0]):
		buf, name = site.Args[1], "rand.Reader"
	case id.Pkg == "io" && id.Recv == "Reader" && isCryptoReader(site.Recv) && len(site.Args) == 1:
		buf, name = site.Args[0], "rand.Reader"
	default:
		return nil, "", false
	}
	if sl, ok := flow.Unwrap(buf).(*ssa.Slice); ok {
		if a, ok := sl.X.(*ssa.Alloc); ok {
			return a, name, true
		}
	}
	return buf, name, true
}

func isCryptoReader(v ssa.Value) bool {
	if v == nil {
		return false
	}
	v = flow.Unwrap(v)
	if load, ok := v.(*ssa.UnOp); ok {
		v = load.X
	}
	g, ok := v.(*ssa.Global)
	return ok && g.Pkg != nil && g.Pkg.Pkg.Path() == "crypto/rand" && g.Name() == "Reader"
}

// indexInvokes records the package's calls of interface methods by method name (callsOf). It
// runs once (invokesOnce), when first asked: the Result is shared by checks that run at once,
// and most packages never ask. Static calls are the Stores' index.
func (r *Result) indexInvokes() {
	r.invokes = make(map[string][]ssa.CallInstruction)
	for _, g := range r.srcFuncs {
		for call := range flow.Calls(g) {
			if call.Common().IsInvoke() {
				name := call.Common().Method.Name()
				r.invokes[name] = append(r.invokes[name], call)
			}
		}
	}
}

// callsOf returns the package's calls of fn: static calls, and calls of a method of an
// interface that fn's receiver type implements. It returns nil when the package uses fn other
// than by calling it (a function value handed on: whoever holds it may call it).
func (r *Result) callsOf(fn *ssa.Function) []ssa.CallInstruction {
	if r.stores.AsValue[fn] {
		return nil
	}
	calls := slices.Clone(r.stores.Calls[fn])
	recv := fn.Signature.Recv()
	if recv == nil {
		return calls
	}
	r.invokesOnce.Do(r.indexInvokes)
	for _, c := range r.invokes[fn.Name()] {
		if iface, ok := c.Common().Value.Type().Underlying().(*types.Interface); ok && types.Implements(recv.Type(), iface) {
			calls = append(calls, c)
		}
	}
	return calls
}
