package knowledge

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

// Retry libraries, self-retrying clients and their settings, as data: one file per library
// holds its Library value (retrygo.go, backoff.go, retryablehttp.go, ...), Libraries lists
// them, and this file holds the vocabulary of those tables. Attempts always count calls of the
// retried function (first call included); where a library counts retries, its count has plus
// 1. Read each library's source at the versions users have before changing an entry: defaults
// and the meaning of 0 differ between major versions.

// BoundKind says what limits the number of attempts.
type BoundKind uint8

const (
	BoundUnknown BoundKind = iota // the model cannot tell
	BoundNone                     // nothing limits the attempts
	BoundConst                    // at most N attempts
	BoundVar                      // limited by a value known only at run time
)

// A Bound is the limit on the number of attempts of a scope.
type Bound struct {
	Kind BoundKind
	N    int // attempts, when Kind is BoundConst
	// Setting names the struct field a BoundVar loop compares its counter with
	// ("pkg/path.MaxRetries"): the attempts are what the program sets there.
	Setting string
	field   *types.Var // that field, in this package's run (not in facts)
}

// InField returns b compared with field fv, which Setting names.
func (b Bound) InField(fv *types.Var) Bound {
	b.Setting, b.field = fv.Pkg().Path()+"."+fv.Name(), fv
	return b
}

// Field returns the field a BoundVar loop compares its counter with, when it was found in
// this package's run; nil otherwise (also in a fact).
func (b Bound) Field() *types.Var { return b.field }

func (b Bound) String() string {
	switch b.Kind {
	case BoundNone:
		return "unbounded"
	case BoundConst:
		return fmt.Sprint(b.N)
	case BoundVar:
		return "variable"
	}
	return "unknown"
}

// WaitKind says how a scope waits between attempts.
type WaitKind uint8

const (
	WaitUnknown  WaitKind = iota // it waits, but the model cannot tell how
	WaitNone                     // it does not wait
	WaitFixed                    // a constant or configured delay, not randomised
	WaitBackoff                  // a growing delay (linear or exponential), not randomised
	WaitJittered                 // a randomised delay
)

func (w WaitKind) String() string {
	switch w {
	case WaitNone:
		return "none"
	case WaitFixed:
		return "fixed"
	case WaitBackoff:
		return "backoff"
	case WaitJittered:
		return "jittered"
	}
	return "unknown"
}

// DeadlineKind says whether a scope observes an overall time bound.
type DeadlineKind uint8

const (
	DeadlineUnknown DeadlineKind = iota
	DeadlineNone                 // no context, no elapsed-time check, no maximum duration
	DeadlineContext              // it checks a context or passes one on to the calls it repeats
	DeadlineElapsed              // it checks the elapsed time, or its helper has a maximum duration
)

func (d DeadlineKind) String() string {
	switch d {
	case DeadlineNone:
		return "none"
	case DeadlineContext:
		return "context"
	case DeadlineElapsed:
		return "elapsed"
	}
	return "unknown"
}

// A Library describes one retry library, client or family of them: where it lives, the
// functions that retry a function argument (helpers) or send requests they retry themselves
// (clients), what it does when nothing is configured, and what each of its options,
// constructors, literals, package variables and struct fields sets. Where a table cannot say
// it, the model refines it in code of its own (retryscope's hooks.go), keyed by the Library.
type Library struct {
	Name     string   // for documentation: "avast/retry-go v4+"
	Paths    []string // the import paths of its packages (entries and settings)
	Prefix   bool     // paths are prefixes (every service package of an SDK)
	Helpers  []Entry
	Clients  []Entry
	Defaults Summary // before any setting
	// Settings by name: a function or method ("Attempts", "Builder.WithMaxRetries"), a package
	// variable ("DefaultRetry"), a composite literal of a type ("ExponentialBackOff{}"), or a
	// field of one ("ExponentialBackOff.RandomizationFactor").
	Settings map[string]Option
	// Made names the constructors and literals that make a client of the library; when none
	// of them reaches a call, the client came from elsewhere and its settings are unknown.
	Made []string
	// CapHint and DeadlineHint say, in the library's terms, how to cap the attempts and how to
	// make the retries observe a context (%s: the context's name).
	CapHint, DeadlineHint string
	// FixedWaits says that no setting of the library can randomise its waits (the Terraform
	// SDK's): they are its policy, as a framework's are, and the code calling it has nothing
	// to change.
	FixedWaits bool
	// Verdicts are the library's result types (pointed to or not) by which a retried function
	// says whether to go round when it returns no error (Terraform's *RetryError): a function
	// parameter returning one is retried like one returning an error.
	Verdicts []string
	// Mutates says that the library's methods change the client they are called on (resty's
	// SetRetryCount returns the client it set): a call on any load of the field that keeps
	// the client configures it.
	Mutates bool
	// Copies are the methods of a Mutates library that return a copy of the client rather
	// than the client (resty's Clone): what is set on the copy is not set on the original.
	Copies []string
}

// An Entry is a group of functions or methods of a library with the same shape.
type Entry struct {
	Recv  string   // receiver type name; "" for functions; clients: "*" for any type
	Names []string // function or method names; clients: none for every method of Recv
	Arg   int      // helpers: the retried function argument (receiver excluded); -1 with field
	Field string   // helpers: the retried function is this field of the receiver's struct (Refresh)
	Path  string   // when set, the one package of the library's paths that has these functions
	// Config lists the arguments whose construction holds the settings (receiver excluded);
	// -1 is the receiver. A variadic argument counts with all its elements.
	Config []int
	Ctx    int      // the context argument that bounds the scope, or -1
	Over   *Summary // this entry's own defaults, when they differ from the library's
	Poll   bool     // it polls a condition until it holds (Scope.Poll)
}

// A Summary is what a library does: the bound on attempts, the wait, the deadline.
type Summary struct {
	Attempts Bound
	Wait     WaitKind
	Deadline DeadlineKind
}

// An Option is what one option, constructor, literal, variable or field sets. Where it depends
// on a value (the option's argument arg, the field's stored value), the rules say how.
type Option struct {
	Arg int // the argument holding the value, receiver excluded (fields: the stored value)
	// Layer 0 settings (constructors, literals, variables) apply before Layer 1 (options,
	// fields, wrappers), which may change what the constructor chose.
	Layer int

	Attempts     Count
	Bound        *Bound              // the attempt bound it sets, whatever the value
	Wait         WaitKind            // the wait it sets (WaitUnknown: none)
	ZeroWait     WaitKind            // the wait when the value is the constant zero (WaitUnknown: wait; KeepWait: none)
	WaitBy       map[string]WaitKind // the wait by the library functions the value is made of
	Deadline     DeadlineKind        // the deadline it sets; DeadlineContext needs a bounded context value
	ZeroDeadline DeadlineKind        // the deadline when the value is the constant zero (KeepDeadline: none)
	Brief        bool                // its waits add up to well under a second (Scope.Brief)
	Jitter       *JitterFix          // how a fix turns jitter on where this setting left it off
}

// KeepWait and KeepDeadline, as a setting's zero rule, say that a zero value changes nothing.
const (
	KeepWait     WaitKind     = 255
	KeepDeadline DeadlineKind = 255
)

// A Count says how a numeric value bounds attempts.
type Count struct {
	Set      bool
	Plus     int    // 1 when the value counts retries, 0 when it counts attempts
	Zero     *Bound // what the value 0 means, when not "plus" attempts
	Negative *Bound // what a negative value means
}

// Bounds that options set whatever their value.
var (
	Unbounded = &Bound{Kind: BoundNone}
	Never     = &Bound{Kind: BoundConst, N: 0} // the function is never called
	Once      = &Bound{Kind: BoundConst, N: 1}
)

// AtMost is a bound of n attempts.
func AtMost(n int) *Bound { return &Bound{Kind: BoundConst, N: n} }

// AttemptsOf is the Count of a value that counts attempts (plus 0) or retries (plus 1);
// ZeroMeans and NegativeMeans say what 0 and negative values mean instead.
func AttemptsOf(plus int) Count              { return Count{Set: true, Plus: plus} }
func (c Count) ZeroMeans(b *Bound) Count     { c.Zero = b; return c }
func (c Count) NegativeMeans(b *Bound) Count { c.Negative = b; return c }

// Of is the attempt bound that value v sets.
func (c Count) Of(v ssa.Value) Bound {
	n, ok := flow.IntConst(v)
	switch {
	case !ok:
		return Bound{Kind: BoundVar}
	case n == 0 && c.Zero != nil:
		return *c.Zero
	case n < 0 && c.Negative != nil:
		return *c.Negative
	case n < 0:
		return Bound{Kind: BoundConst, N: c.Plus}
	}
	return Bound{Kind: BoundConst, N: int(n) + c.Plus}
}

// Versions returns the import paths of a module across its major versions.
func Versions(base string, majors ...int) []string {
	var paths []string
	for _, m := range majors {
		if m < 2 {
			paths = append(paths, base)
		} else {
			paths = append(paths, fmt.Sprintf("%s/v%d", base, m))
		}
	}
	return paths
}

// Libraries are the retry libraries the model knows, in the order it matches a call against
// them (a client of net/http is matched against the transports that make it retry first).
var Libraries = []*Library{
	RetryGo, RetryGoV2,
	BackoffV4, BackoffV5,
	GoRetry,
	KubernetesWait,
	FailsafeGo,
	Gax,
	IdemlintRetry,
	RetryableHTTP, RetryableHTTPStandard, IdemlintTransport,
	Resty,
	AWSv2, Stripe, Minio, CloudStorage, Azure, ORASTransport,
	TerraformSDK,
	Roko,
	Try,
}
