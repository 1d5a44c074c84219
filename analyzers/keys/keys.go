package keys

import (
	_ "embed"
	"fmt"
	"go/token"
	"go/types"
	"reflect"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/config"
	"github.com/idemlint/idemlint/analyzers/internal/docs"
	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/ssapkg"
)

//go:embed doc.go
var doc string

// Analyzer computes the key model of a package: its generator functions, the parameters it
// sends to sinks, and the functions that mint a key on every call.
var Analyzer = &analysis.Analyzer{
	Name:       "keys",
	Doc:        docs.MustExtract(doc, "keys"),
	URL:        docs.URL("keys"),
	Requires:   []*analysis.Analyzer{ssapkg.Analyzer},
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{new(GeneratorFact), new(SinkParamFact), new(MintsFact)},
	Run:        run,
}

var (
	extraNames      config.List
	extraGenerators = config.List{Check: func(s string) error { _, err := parseFunc(s); return err }}
)

func init() {
	Analyzer.Flags.Var(&extraNames, "names", "comma-separated extra idempotency-key names (headers, fields, metadata keys; case and punctuation ignored)")
	Analyzer.Flags.Var(&extraGenerators, "generators", "comma-separated extra functions that make fresh unique values, as pkg/path.Func or pkg/path.Type.Method")
}

// GeneratorFact marks a function that returns a fresh unique value on every call.
type GeneratorFact struct{ From string }

func (*GeneratorFact) AFact()           {}
func (f *GeneratorFact) String() string { return "generator: " + f.From }

// SinkParamFact marks a function that sends some of its parameters to an idempotency sink.
type SinkParamFact struct {
	Params []int  // indices, receiver excluded
	What   string // the sink, as Sink.What
}

func (*SinkParamFact) AFact() {}
func (f *SinkParamFact) String() string {
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
	ssaPkg     *ssa.Package
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
		ssaPkg:     ssaRes.Pkg,
	}
	for _, n := range append(defaultNames, extraNames.Values()...) {
		r.names[Normalize(n)] = true
	}
	for _, g := range generatorTable {
		r.generators[g] = true
	}
	for _, g := range extraGenerators.Values() {
		id, err := parseFunc(g)
		if err != nil {
			return nil, err
		}
		r.generators[id] = true
	}
	r.infer(ssaRes.SrcFuncs) // none for the standard library
	return r, nil
}

// parseFunc parses "pkg/path.Func" or "pkg/path.Type.Method".
func parseFunc(s string) (flow.FuncID, error) {
	slash := strings.LastIndex(s, "/")
	dot := strings.Index(s[slash+1:], ".")
	if dot < 0 {
		return flow.FuncID{}, fmt.Errorf("generator %q: want pkg/path.Func", s)
	}
	id := flow.FuncID{Pkg: s[:slash+1+dot], Name: s[slash+1+dot+1:]}
	if recv, name, ok := strings.Cut(id.Name, "."); ok {
		id.Recv, id.Name = strings.Trim(recv, "(*)"), name
	}
	return id, nil
}

// IsName reports whether name (a header, field, metadata key or JSON key) names an
// idempotency key.
func (r *Result) IsName(name string) bool { return r.names[Normalize(name)] }

// A Generation is a call that makes a fresh unique value.
type Generation struct {
	Call ssa.CallInstruction
	Seed ssa.Value // the fresh value: the call's result, or the buffer it fills
	Name string    // "uuid.NewString"
}

// Generator reports whether call makes a fresh unique value.
func (r *Result) Generator(call ssa.CallInstruction) (Generation, bool) {
	c := call.Common()
	fn := flow.Callee(c)
	if fn == nil {
		return Generation{}, false
	}
	id := flow.ID(fn)
	name := shortName(fn)
	v := call.Value()
	switch {
	case id.Pkg == "crypto/rand" && id.Name == "Read" && len(c.Args) == 1:
		return Generation{Call: call, Seed: c.Args[0], Name: name}, true
	case id.Pkg == "io" && (id.Name == "ReadFull" || id.Name == "ReadAtLeast") && len(c.Args) >= 2 && isCryptoReader(c.Args[0]):
		return Generation{Call: call, Seed: c.Args[1], Name: "rand.Reader"}, true
	case v == nil:
		return Generation{}, false
	case r.generators[id] || isRandom(id):
		return Generation{Call: call, Seed: v, Name: name}, true
	}
	if callee := c.StaticCallee(); callee != nil && r.localGen[callee] != "" {
		return Generation{Call: call, Seed: v, Name: name}, true
	}
	if fn.Pkg() != nil && fn.Pkg() != r.pass.Pkg {
		var f GeneratorFact
		if r.pass.ImportObjectFact(fn, &f) {
			return Generation{Call: call, Seed: v, Name: name}, true
		}
	}
	return Generation{}, false
}

// isRandom: math/rand's and math/rand/v2's number functions and methods.
func isRandom(id flow.FuncID) bool {
	if id.Pkg != "math/rand" && id.Pkg != "math/rand/v2" {
		return false
	}
	switch id.Name {
	case "New", "NewSource", "NewPCG", "NewChaCha8", "NewZipf", "Seed", "Shuffle":
		return false
	}
	return true
}

func isCryptoReader(v ssa.Value) bool {
	v = flow.Unwrap(v)
	if load, ok := v.(*ssa.UnOp); ok {
		v = load.X
	}
	g, ok := v.(*ssa.Global)
	return ok && g.Pkg != nil && g.Pkg.Pkg.Path() == "crypto/rand" && g.Name() == "Reader"
}

// shortName is how a message names a function: "uuid.NewString", "(*Client).Do".
func shortName(fn *types.Func) string {
	id := flow.ID(fn)
	if id.Recv != "" {
		return id.Recv + "." + id.Name
	}
	if fn.Pkg() != nil {
		return fn.Pkg().Name() + "." + id.Name
	}
	return id.Name
}

// generatorTable lists the library functions that make fresh unique values.
var generatorTable = func() []flow.FuncID {
	var ids []flow.FuncID
	add := func(pkgs []string, names ...string) {
		for _, p := range pkgs {
			for _, n := range names {
				ids = append(ids, flow.FuncID{Pkg: p, Name: n})
			}
		}
	}
	add([]string{"github.com/google/uuid"}, "New", "NewString", "NewRandom", "NewV7", "NewUUID", "NewV6", "NewRandomFromReader")
	add([]string{"github.com/gofrs/uuid", "github.com/gofrs/uuid/v3", "github.com/gofrs/uuid/v4", "github.com/gofrs/uuid/v5",
		"github.com/satori/go.uuid"}, "NewV1", "NewV4", "NewV6", "NewV7")
	add([]string{"github.com/rs/xid"}, "New", "NewWithTime")
	add([]string{"github.com/segmentio/ksuid"}, "New", "NewRandom", "NewRandomWithTime")
	add([]string{"github.com/oklog/ulid", "github.com/oklog/ulid/v2"}, "Make", "New", "MustNew", "MustNewDefault")
	add([]string{"crypto/rand"}, "Text", "Int", "Prime")
	add([]string{"time"}, "Now")
	add([]string{"github.com/idemlint/idemlint/runtime/idempotency"}, "NewKey")
	return ids
}()

// isEmptyTest reports whether the branch of block b (ending in an If) that leads to target
// is taken when some value is empty: x == "", x == nil, len(x) == 0, !ok.
func isEmptyTest(b *ssa.BasicBlock, target *ssa.BasicBlock) bool {
	ifInstr, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok || len(b.Succs) != 2 {
		return false
	}
	taken := -1
	for i, s := range b.Succs {
		if s.Dominates(target) {
			taken = i
		}
	}
	if taken < 0 {
		return false
	}
	empty := emptyWhen(ifInstr.Cond)
	return empty >= 0 && empty == taken
}

// emptyWhen returns which branch (0: true, 1: false) of cond is taken when a value is empty,
// or -1 when cond is not such a test.
func emptyWhen(cond ssa.Value) int {
	switch c := cond.(type) {
	case *ssa.UnOp:
		if c.Op == token.NOT {
			if e := emptyWhen(c.X); e >= 0 {
				return 1 - e
			}
			if ext, ok := c.X.(*ssa.Extract); ok && ext.Index == 1 {
				switch ext.Tuple.(type) {
				case *ssa.Lookup, *ssa.TypeAssert:
					return 0 // !ok: not found
				}
			}
		}
	case *ssa.BinOp:
		if c.Op != token.EQL && c.Op != token.NEQ {
			return -1
		}
		x, y := c.X, c.Y
		if _, ok := x.(*ssa.Const); ok {
			x, y = y, x
		}
		k, ok := y.(*ssa.Const)
		if !ok {
			return -1
		}
		isEmpty := k.IsNil()
		if s, ok := flow.StringConst(k); ok && s == "" {
			isEmpty = true
		}
		if n, ok := flow.IntConst(k); ok && n == 0 {
			if call, ok := x.(*ssa.Call); ok {
				if b, ok := call.Common().Value.(*ssa.Builtin); ok && b.Name() == "len" {
					isEmpty = true
				}
			}
		}
		if !isEmpty {
			return -1
		}
		if c.Op == token.EQL {
			return 0
		}
		return 1
	}
	return -1
}

// Guarded reports whether the generation only runs when some value is empty (if key == "" {
// key = uuid.New() }): it fills in a missing key rather than making one per call. Only tests
// in blocks for which within holds count.
func Guarded(g Generation, within func(*ssa.BasicBlock) bool) bool {
	b := g.Call.Block()
	for d := b.Idom(); d != nil; d = d.Idom() {
		if !within(d) {
			return false
		}
		if len(d.Instrs) > 0 && isEmptyTest(d, b) {
			return true
		}
	}
	return false
}
