package retryscope

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

// This file is the one place that knows retry libraries. To teach the model a new library,
// add a helper (a function or method that calls one of its function arguments until it
// succeeds) or a client (a call that retries on its own) below, with a summarise function
// that reads the call's options. Users can add helpers without code through the
// -retryscope.helpers flag.

// A helper is a library function or method that retries one of its function arguments.
type helper struct {
	id  flow.FuncID
	arg int // index of the retried function among the arguments (receiver excluded)
	// when, if set, says whether this call retries at all (failsafe-go without a retry policy
	// does not); summarise fills in the scope's attempts, wait and deadline from the call's
	// arguments, starting from the library's defaults.
	when      func(c *site) bool
	summarise func(c *site, s *Scope)
}

// A client is a call that leaves the process and retries on its own.
type client struct {
	match     func(id flow.FuncID) bool
	when      func(c *site) bool
	summarise func(c *site, s *Scope)
}

// A site is one call of a helper or client.
type site struct {
	flow.Site
	call   ssa.CallInstruction
	stores *flow.Stores // what the package stores into fields and variables
}

func (st *state) newSite(call ssa.CallInstruction, fn *types.Func) *site {
	return &site{Site: flow.NewSite(call.Common(), fn), call: call, stores: st.stores}
}

// calls is calls following loads of fields and package variables to what the package stores
// into them, so that a client built in a constructor is seen where a method uses it.
func (c *site) calls(vals ...ssa.Value) []*ssa.Call { return callsVia(c.stores, vals...) }

// origins returns v and, when v loads a field or package variable, the values stored into it,
// and theirs in turn (a field copied from another struct's field).
func (c *site) origins(v ssa.Value) []ssa.Value {
	out := []ssa.Value{v}
	seen := map[ssa.Value]bool{v: true}
	for i := 0; i < len(out) && len(out) < 16; i++ {
		for _, s := range c.stores.Loaded(flow.Unwrap(out[i])) {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// calls returns the calls that compute the given values, the values' receivers and arguments
// included, so that option constructors and builder chains are seen.
func calls(vals ...ssa.Value) []*ssa.Call { return callsVia(nil, vals...) }

// callsVia is calls that also follows loads of fields and package variables through stores
// (nil: it does not).
func callsVia(stores *flow.Stores, vals ...ssa.Value) []*ssa.Call {
	var out []*ssa.Call
	for _, v := range vals {
		if v == nil {
			continue
		}
		stores.Backward(v, 256, func(x ssa.Value) bool {
			if c, ok := x.(*ssa.Call); ok {
				out = append(out, c)
			}
			return true
		})
	}
	return out
}

// calledBy returns the functions that fn, a function of this package (a method value's
// wrapper, an in-house backoff method), calls, and so on depth levels down.
func calledBy(fn *ssa.Function, depth int) []flow.FuncID {
	var out []flow.FuncID
	for c := range flow.Calls(fn) {
		if callee := flow.Callee(c.Common()); callee != nil {
			out = append(out, flow.ID(callee))
		}
		if next := c.Common().StaticCallee(); next != nil && depth > 1 {
			out = append(out, calledBy(next, depth-1)...)
		}
	}
	return out
}

// funcsIn returns the functions referred to (as values or callees) in the computation of v.
func funcsIn(vals ...ssa.Value) []flow.FuncID {
	var out []flow.FuncID
	for _, v := range vals {
		if v == nil {
			continue
		}
		flow.Backward(v, 256, func(x ssa.Value) bool {
			switch x := x.(type) {
			case *ssa.Function:
				if obj, ok := x.Object().(*types.Func); ok {
					out = append(out, flow.ID(obj.Origin()))
				}
				out = append(out, calledBy(x, 2)...)
			case *ssa.Call:
				if fn := flow.Callee(x.Common()); fn != nil {
					out = append(out, flow.ID(fn))
				}
			case *ssa.Global:
				if x.Pkg != nil {
					out = append(out, flow.FuncID{Pkg: x.Pkg.Pkg.Path(), Name: x.Name()})
				}
			}
			return true
		})
	}
	return out
}

// fieldStores returns, for the struct values that v is computed from (composite literals,
// constructor results later assigned to), the last value stored into each named field.
func fieldStores(vals ...ssa.Value) map[string]ssa.Value {
	out := make(map[string]ssa.Value)
	for _, v := range vals {
		if v == nil {
			continue
		}
		flow.Backward(v, 256, func(x ssa.Value) bool {
			// The struct pointer itself, or, for a variable boxed because a closure captures
			// it, every load of the box.
			ptrs := []ssa.Value{x}
			if a, ok := x.(*ssa.Alloc); ok && a.Referrers() != nil {
				for _, r := range *a.Referrers() {
					if load, ok := r.(*ssa.UnOp); ok && load.Op == token.MUL {
						ptrs = append(ptrs, load)
					}
				}
			}
			for _, p := range ptrs {
				storedFields(p, out)
			}
			return true
		})
	}
	return out
}

// storedFields records in out the values stored into the fields of the struct ptr points to.
func storedFields(ptr ssa.Value, out map[string]ssa.Value) {
	refs := ptr.Referrers()
	if refs == nil {
		return
	}
	for _, r := range *refs {
		fa, ok := r.(*ssa.FieldAddr)
		if !ok || fa.X != ptr {
			continue
		}
		st, ok := fa.X.Type().Underlying().(*types.Pointer)
		if !ok {
			continue
		}
		s, ok := st.Elem().Underlying().(*types.Struct)
		if !ok || fa.Field >= s.NumFields() {
			continue
		}
		for _, rr := range *fa.Referrers() {
			if store, ok := rr.(*ssa.Store); ok && store.Addr == fa {
				out[s.Field(fa.Field).Name()] = store.Val
			}
		}
	}
}

// callArg returns argument i of the first call among cs to a function of pkg named name.
func callArg(cs []*ssa.Call, pkg, name string, i int) (ssa.Value, bool) {
	for _, c := range cs {
		if id := flow.ID(flow.Callee(c.Common())); id.Pkg == pkg && id.Name == name {
			args := c.Common().Args
			if c.Common().Signature().Recv() != nil && !c.Common().IsInvoke() {
				args = args[1:]
			}
			if i < len(args) {
				return args[i], true
			}
			return nil, true
		}
	}
	return nil, false
}

func hasCall(cs []*ssa.Call, pkg string, names ...string) bool {
	return slices.ContainsFunc(cs, func(c *ssa.Call) bool {
		id := flow.ID(flow.Callee(c.Common()))
		return id.Pkg == pkg && slices.Contains(names, id.Name)
	})
}

func hasFunc(ids []flow.FuncID, pkg string, names ...string) bool {
	return slices.ContainsFunc(ids, func(id flow.FuncID) bool {
		return id.Pkg == pkg && slices.Contains(names, id.Name)
	})
}

// attempts is a bound of n attempts when v is a constant, a variable bound otherwise.
func attempts(v ssa.Value, plus int) Bound {
	if n, ok := flow.IntConst(v); ok {
		return Bound{Kind: BoundConst, N: int(n) + plus}
	}
	return Bound{Kind: BoundVar}
}

// versions returns the import paths of a module across its major versions.
func versions(base string, majors ...int) []string {
	paths := []string{base}
	for _, m := range majors {
		paths = append(paths, fmt.Sprintf("%s/v%d", base, m))
	}
	return paths
}

// helpers returns the built-in table of retry helpers.
func helpers() []helper {
	var hs []helper
	add := func(pkgs []string, recv string, names []string, arg int, when func(*site) bool, sum func(pkg string) func(*site, *Scope)) {
		for _, p := range pkgs {
			for _, n := range names {
				hs = append(hs, helper{id: flow.FuncID{Pkg: p, Recv: recv, Name: n}, arg: arg, when: when, summarise: sum(p)})
			}
		}
	}

	// avast/retry-go: Do(fn, opts...), DoWithData(fn, opts...).
	// Defaults: 10 attempts, CombineDelay(BackOffDelay, RandomDelay), no context.
	add(versions("github.com/avast/retry-go", 2, 3, 4, 5), "", []string{"Do", "DoWithData"}, 0, nil, func(pkg string) func(*site, *Scope) {
		return func(c *site, s *Scope) {
			s.Attempts, s.Wait.Kind, s.Deadline = Bound{Kind: BoundConst, N: 10}, WaitJittered, DeadlineNone
			cs := calls(c.Variadic(1)...)
			if v, ok := callArg(cs, pkg, "Attempts", 0); ok {
				if n, isConst := flow.IntConst(v); isConst && n == 0 {
					s.Attempts = Bound{Kind: BoundNone}
				} else {
					s.Attempts = attempts(v, 0)
				}
			}
			if hasCall(cs, pkg, "UntilSucceeded") {
				s.Attempts = Bound{Kind: BoundNone}
			}
			if v, ok := callArg(cs, pkg, "DelayType", 0); ok {
				fs := funcsIn(v)
				switch {
				case hasFunc(fs, pkg, "RandomDelay"):
					s.Wait.Kind = WaitJittered
				case hasFunc(fs, pkg, "BackOffDelay"):
					s.Wait.Kind = WaitBackoff
				case hasFunc(fs, pkg, "FixedDelay"):
					s.Wait.Kind = WaitFixed
				default:
					s.Wait.Kind = WaitUnknown
				}
			}
			if hasCall(cs, pkg, "Context") {
				s.Deadline = DeadlineContext
			}
		}
	})

	// cenkalti/backoff v4 (and earlier): Retry(op, b), RetryNotify(op, b, notify), ... with a
	// BackOff value whose construction says everything.
	add(versions("github.com/cenkalti/backoff", 2, 3, 4), "",
		[]string{"Retry", "RetryNotify", "RetryNotifyWithTimer", "RetryWithData", "RetryNotifyWithData", "RetryNotifyWithTimerAndData"}, 0, nil,
		func(pkg string) func(*site, *Scope) {
			return func(c *site, s *Scope) {
				s.Attempts, s.Wait.Kind, s.Deadline = Bound{Kind: BoundNone}, WaitUnknown, DeadlineNone
				cenkaltiBackOff(pkg, c.Arg(1), s)
			}
		})
	// cenkalti/backoff v5: Retry[T](ctx, op, opts...). Defaults: exponential with jitter,
	// 15 minutes of elapsed time, no cap on tries.
	add([]string{"github.com/cenkalti/backoff/v5"}, "", []string{"Retry"}, 1, nil, func(pkg string) func(*site, *Scope) {
		return func(c *site, s *Scope) {
			s.Attempts, s.Wait.Kind, s.Deadline = Bound{Kind: BoundNone}, WaitJittered, DeadlineContext
			cs := calls(c.Variadic(2)...)
			if v, ok := callArg(cs, pkg, "WithBackOff", 0); ok {
				cenkaltiBackOff(pkg, v, s)
				s.Deadline = DeadlineContext
			}
			if v, ok := callArg(cs, pkg, "WithMaxTries", 0); ok {
				s.Attempts = attempts(v, 0)
			}
		}
	})

	// sethvargo/go-retry: Do(ctx, b, f), DoValue(ctx, b, f); Exponential, Fibonacci, Constant
	// (ctx, d, f) retry forever without jitter.
	const sethvargo = "github.com/sethvargo/go-retry"
	add([]string{sethvargo}, "", []string{"Do", "DoValue"}, 2, nil, func(pkg string) func(*site, *Scope) {
		return func(c *site, s *Scope) {
			s.Attempts, s.Wait.Kind, s.Deadline = Bound{Kind: BoundNone}, WaitUnknown, DeadlineContext
			cs := calls(c.Arg(1))
			switch {
			case hasCall(cs, pkg, "WithJitter", "WithJitterPercent"):
				s.Wait.Kind = WaitJittered
			case hasCall(cs, pkg, "NewExponential", "NewFibonacci"):
				s.Wait.Kind = WaitBackoff
			case hasCall(cs, pkg, "NewConstant"):
				s.Wait.Kind = WaitFixed
			}
			if v, ok := callArg(cs, pkg, "WithMaxRetries", 0); ok {
				s.Attempts = attempts(v, 1)
			}
		}
	})
	add([]string{sethvargo}, "", []string{"Exponential", "Fibonacci"}, 2, nil, func(string) func(*site, *Scope) {
		return func(c *site, s *Scope) {
			s.Attempts, s.Wait.Kind, s.Deadline = Bound{Kind: BoundNone}, WaitBackoff, DeadlineContext
		}
	})
	add([]string{sethvargo}, "", []string{"Constant"}, 2, nil, func(string) func(*site, *Scope) {
		return func(c *site, s *Scope) {
			s.Attempts, s.Wait.Kind, s.Deadline = Bound{Kind: BoundNone}, WaitFixed, DeadlineContext
		}
	})

	// Kubernetes: retry.RetryOnConflict(backoff, fn), retry.OnError(backoff, retriable, fn),
	// wait.ExponentialBackoff(backoff, cond), wait.ExponentialBackoffWithContext(ctx, backoff, cond).
	const k8sRetry, k8sWait = "k8s.io/client-go/util/retry", "k8s.io/apimachinery/pkg/util/wait"
	k8s := func(backoffArg int, deadline DeadlineKind) func(string) func(*site, *Scope) {
		return func(string) func(*site, *Scope) {
			return func(c *site, s *Scope) {
				s.Deadline = deadline
				k8sBackoff(c.Arg(backoffArg), s)
			}
		}
	}
	add([]string{k8sRetry}, "", []string{"RetryOnConflict"}, 1, nil, k8s(0, DeadlineNone))
	add([]string{k8sRetry}, "", []string{"OnError"}, 2, nil, k8s(0, DeadlineNone))
	add([]string{k8sWait}, "", []string{"ExponentialBackoff"}, 1, nil, k8s(0, DeadlineNone))
	add([]string{k8sWait}, "", []string{"ExponentialBackoffWithContext"}, 2, nil, k8s(1, DeadlineContext))

	// failsafe-go: failsafe.Run(fn, policies...), Get(fn, policies...), and the Executor's
	// methods; they retry only with a retrypolicy among the policies.
	const failsafe = "github.com/failsafe-go/failsafe-go"
	withRetryPolicy := func(c *site) bool {
		return len(retryPolicyCalls(c)) > 0
	}
	failsafeSummary := func(string) func(*site, *Scope) {
		return func(c *site, s *Scope) {
			// Defaults: 2 retries (3 attempts), no delay.
			s.Attempts, s.Wait.Kind, s.Deadline = Bound{Kind: BoundConst, N: 3}, WaitNone, DeadlineNone
			cs := retryPolicyCalls(c)
			const rp = failsafe + "/retrypolicy"
			if v, ok := callArg(cs, rp, "WithMaxRetries", 0); ok {
				if n, isConst := flow.IntConst(v); isConst && n < 0 {
					s.Attempts = Bound{Kind: BoundNone}
				} else {
					s.Attempts = attempts(v, 1)
				}
			}
			if v, ok := callArg(cs, rp, "WithMaxAttempts", 0); ok {
				s.Attempts = attempts(v, 0)
			}
			switch {
			case hasCall(cs, rp, "WithJitter", "WithJitterFactor", "WithRandomDelay"):
				s.Wait.Kind = WaitJittered
			case hasCall(cs, rp, "WithBackoff", "WithBackoffFactor"):
				s.Wait.Kind = WaitBackoff
			case hasCall(cs, rp, "WithDelay", "WithDelayFunc"):
				s.Wait.Kind = WaitFixed
			}
			if hasCall(cs, rp, "WithMaxDuration") {
				s.Deadline = DeadlineElapsed
			}
			if hasCall(calls(c.Recv), failsafe, "WithContext") {
				s.Deadline = DeadlineContext
			}
		}
	}
	add([]string{failsafe}, "", []string{"Run", "Get", "RunWithExecution", "GetWithExecution"}, 0, withRetryPolicy, failsafeSummary)
	add([]string{failsafe}, "Executor", []string{"Run", "Get", "RunWithExecution", "GetWithExecution", "RunAsync", "GetAsync"}, 0, withRetryPolicy, failsafeSummary)

	// gax-go: Invoke(ctx, call, opts...) retries per its CallOptions (jittered backoff, bounded
	// by the context); with no options it calls once.
	add(versions("github.com/googleapis/gax-go", 2), "", []string{"Invoke"}, 1,
		func(c *site) bool {
			elems, known := flow.Elems(c.Arg(2))
			return !known || len(elems) > 0
		},
		func(string) func(*site, *Scope) {
			return func(c *site, s *Scope) {
				s.Attempts, s.Wait.Kind, s.Deadline = Bound{Kind: BoundNone}, WaitJittered, DeadlineContext
			}
		})

	// This project's runtime: retry.Do(ctx, policy, fn), retry.DoValue(ctx, policy, fn).
	// Defaults: 4 attempts, full jitter, the context's deadline.
	add([]string{"github.com/idemlint/idemlint/runtime/retry"}, "", []string{"Do", "DoValue"}, 2, nil, func(string) func(*site, *Scope) {
		return func(c *site, s *Scope) {
			s.Attempts, s.Wait.Kind, s.Deadline = Bound{Kind: BoundConst, N: 4}, WaitJittered, DeadlineContext
			if v, ok := fieldStores(c.Arg(1))["MaxAttempts"]; ok {
				if n, isConst := flow.IntConst(v); !isConst || n > 0 {
					s.Attempts = attempts(v, 0)
				}
			}
		}
	})
	return hs
}

const retryhttp = "github.com/idemlint/idemlint/runtime/retry/retryhttp"

// retryhttpClient returns the http.Client value, the receiver or what the field or variable
// it comes from holds, whose Transport is a runtime/retry/retryhttp.Transport; nil if none.
func retryhttpClient(c *site) ssa.Value {
	for _, v := range c.origins(c.Recv) {
		if t, ok := fieldStores(v)["Transport"]; ok && isAllocOf(t, retryhttp, "Transport") {
			return v
		}
	}
	return nil
}

// retryPolicyCalls returns the failsafe-go retrypolicy calls that configure a call's policies.
func retryPolicyCalls(c *site) []*ssa.Call {
	var out []*ssa.Call
	for _, call := range calls(append([]ssa.Value{c.Recv}, c.Args...)...) {
		if id := flow.ID(flow.Callee(call.Common())); strings.HasPrefix(id.Pkg, "github.com/failsafe-go/failsafe-go/retrypolicy") {
			out = append(out, call)
		}
	}
	return out
}

// cenkaltiBackOff summarises a cenkalti/backoff BackOff value.
func cenkaltiBackOff(pkg string, b ssa.Value, s *Scope) {
	cs := calls(b)
	fields := fieldStores(b)
	exponential := hasCall(cs, pkg, "NewExponentialBackOff") || isAllocOf(b, pkg, "ExponentialBackOff")
	switch {
	case exponential:
		s.Wait.Kind, s.Deadline = WaitJittered, DeadlineElapsed // RandomizationFactor 0.5, MaxElapsedTime 15 min
		if v, ok := callArg(cs, pkg, "WithRandomizationFactor", 0); ok && flow.IsZero(v) {
			s.Wait.Kind = WaitBackoff
		}
		if v, ok := fields["RandomizationFactor"]; ok && flow.IsZero(v) {
			s.Wait.Kind = WaitBackoff
		}
		if isAllocOf(b, pkg, "ExponentialBackOff") && fields["RandomizationFactor"] == nil && !hasCall(cs, pkg, "NewExponentialBackOff") {
			s.Wait.Kind = WaitBackoff // a literal without RandomizationFactor has none
		}
		if v, ok := callArg(cs, pkg, "WithMaxElapsedTime", 0); ok && flow.IsZero(v) {
			s.Deadline = DeadlineNone
		}
		if v, ok := fields["MaxElapsedTime"]; ok && flow.IsZero(v) {
			s.Deadline = DeadlineNone
		}
	case hasCall(cs, pkg, "NewConstantBackOff") || isAllocOf(b, pkg, "ConstantBackOff"):
		s.Wait.Kind = WaitFixed
	case isAllocOf(b, pkg, "ZeroBackOff"):
		s.Wait.Kind = WaitNone
	case isAllocOf(b, pkg, "StopBackOff"):
		s.Attempts, s.Wait.Kind = Bound{Kind: BoundConst, N: 1}, WaitNone
	}
	if v, ok := callArg(cs, pkg, "WithMaxRetries", 1); ok {
		s.Attempts = attempts(v, 1)
	}
	if hasCall(cs, pkg, "WithContext") {
		s.Deadline = DeadlineContext
	}
}

// isAllocOf reports whether v is computed from a composite literal of type pkg.name.
func isAllocOf(v ssa.Value, pkg, name string) bool {
	found := false
	flow.Backward(v, 64, func(x ssa.Value) bool {
		if a, ok := x.(*ssa.Alloc); ok {
			if n, ok := types.Unalias(a.Type().(*types.Pointer).Elem()).(*types.Named); ok &&
				n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name {
				found = true
			}
		}
		return !found
	})
	return found
}

// k8sBackoff summarises a wait.Backoff value: the package's DefaultRetry and DefaultBackoff, or
// a literal.
func k8sBackoff(b ssa.Value, s *Scope) {
	s.Attempts, s.Wait.Kind = Bound{Kind: BoundUnknown}, WaitUnknown
	ids := funcsIn(b)
	switch {
	case hasFunc(ids, "k8s.io/client-go/util/retry", "DefaultRetry"):
		s.Attempts, s.Wait.Kind = Bound{Kind: BoundConst, N: 5}, WaitJittered
		return
	case hasFunc(ids, "k8s.io/client-go/util/retry", "DefaultBackoff"):
		s.Attempts, s.Wait.Kind = Bound{Kind: BoundConst, N: 4}, WaitJittered
		return
	}
	if !isAllocOf(b, "k8s.io/apimachinery/pkg/util/wait", "Backoff") {
		return
	}
	f := fieldStores(b)
	s.Attempts = Bound{Kind: BoundConst, N: 1} // Steps 0 means one try
	if v, ok := f["Steps"]; ok {
		s.Attempts = attempts(v, 0)
	}
	switch jitter, ok := f["Jitter"]; {
	case ok && !flow.IsZero(jitter):
		s.Wait.Kind = WaitJittered
	case f["Factor"] != nil && !flow.IsZero(f["Factor"]):
		if factor, isConst := flow.FloatConst(f["Factor"]); isConst && factor <= 1 {
			s.Wait.Kind = WaitFixed
		} else {
			s.Wait.Kind = WaitBackoff
		}
	default:
		s.Wait.Kind = WaitFixed
	}
}

// clients returns the built-in table of self-retrying clients.
func clients() []client {
	const retryablehttp = "github.com/hashicorp/go-retryablehttp"
	retryable := func(c *site, s *Scope) {
		// Defaults: RetryMax 4 (5 attempts), DefaultBackoff (exponential, no jitter).
		s.Attempts, s.Wait.Kind, s.Deadline = Bound{Kind: BoundConst, N: 5}, WaitBackoff, DeadlineUnknown
		var f map[string]ssa.Value
		for _, v := range c.origins(c.Recv) {
			if f = fieldStores(v); len(f) > 0 {
				break
			}
		}
		if v, ok := f["RetryMax"]; ok {
			s.Attempts = attempts(v, 1)
		}
		if v, ok := f["Backoff"]; ok {
			switch ids := funcsIn(v); {
			case hasFunc(ids, retryablehttp, "LinearJitterBackoff"):
				s.Wait.Kind = WaitJittered
			case hasFunc(ids, retryablehttp, "DefaultBackoff"):
				s.Wait.Kind = WaitBackoff
			default:
				s.Wait.Kind = WaitUnknown
			}
		}
	}
	restyPkgs := []string{"github.com/go-resty/resty/v2", "resty.dev/v3"}
	isResty := func(p string) bool { return p == restyPkgs[0] || p == restyPkgs[1] }
	return []client{
		{
			match: func(id flow.FuncID) bool {
				return id.Pkg == retryablehttp && (id.Recv == "Client" || id.Recv == "") &&
					oneOf(id.Name, "Do", "Get", "Head", "Post", "PostForm")
			},
			summarise: retryable,
		},
		{
			// An *http.Client made by retryablehttp's StandardClient retries in its transport.
			match: func(id flow.FuncID) bool {
				return id.Pkg == "net/http" && id.Recv == "Client" && oneOf(id.Name, "Do", "Get", "Head", "Post", "PostForm")
			},
			when: func(c *site) bool {
				return hasCall(c.calls(c.Recv), retryablehttp, "StandardClient")
			},
			summarise: func(c *site, s *Scope) {
				for _, call := range c.calls(c.Recv) {
					if flow.ID(flow.Callee(call.Common())).Name == "StandardClient" {
						retryable(&site{Site: flow.Site{Recv: call.Common().Args[0]}, call: call, stores: c.stores}, s)
					}
				}
			},
		},
		{
			// An *http.Client whose Transport is this project's retryhttp.Transport.
			match: func(id flow.FuncID) bool {
				return id.Pkg == "net/http" && id.Recv == "Client" && oneOf(id.Name, "Do", "Get", "Head", "Post", "PostForm")
			},
			when: func(c *site) bool {
				return retryhttpClient(c) != nil
			},
			summarise: func(c *site, s *Scope) {
				s.Attempts, s.Wait.Kind, s.Deadline = Bound{Kind: BoundConst, N: 4}, WaitJittered, DeadlineContext
				if p, ok := fieldStores(fieldStores(retryhttpClient(c))["Transport"])["Policy"]; ok {
					if v, ok := fieldStores(p)["MaxAttempts"]; ok {
						if n, isConst := flow.IntConst(v); !isConst || n > 0 {
							s.Attempts = attempts(v, 0)
						}
					}
				}
			},
		},
		{
			// resty retries when its client has a retry count.
			match: func(id flow.FuncID) bool {
				return isResty(id.Pkg) && id.Recv == "Request" &&
					oneOf(id.Name, "Get", "Post", "Put", "Patch", "Delete", "Head", "Options", "Execute", "Send")
			},
			when: func(c *site) bool {
				for _, p := range restyPkgs {
					if v, ok := callArg(c.calls(c.Recv), p, "SetRetryCount", 0); ok {
						n, isConst := flow.IntConst(v)
						return !isConst || n > 0
					}
				}
				return false
			},
			summarise: func(c *site, s *Scope) {
				s.Wait.Kind, s.Deadline = WaitJittered, DeadlineUnknown
				for _, p := range restyPkgs {
					if v, ok := callArg(c.calls(c.Recv), p, "SetRetryCount", 0); ok {
						s.Attempts = attempts(v, 1)
					}
				}
			},
		},
		{
			// AWS SDK for Go v2 service clients: the standard retryer, 3 attempts, jittered.
			match: func(id flow.FuncID) bool {
				return strings.HasPrefix(id.Pkg, "github.com/aws/aws-sdk-go-v2/service/") && id.Recv == "Client"
			},
			summarise: func(c *site, s *Scope) {
				s.Attempts, s.Wait.Kind, s.Deadline = Bound{Kind: BoundConst, N: 3}, WaitJittered, DeadlineContext
			},
		},
	}
}

func oneOf(s string, options ...string) bool {
	for _, o := range options {
		if s == o {
			return true
		}
	}
	return false
}

// parseHelper parses a -retryscope.helpers entry: "path/to/pkg.Func:N" or
// "path/to/pkg.Type.Method:N", where N is the index of the retried function argument.
func parseHelper(s string) (helper, error) {
	spec, idx, ok := strings.Cut(s, ":")
	if !ok {
		return helper{}, fmt.Errorf("helper %q: want pkg.Func:N", s)
	}
	n, err := strconv.Atoi(idx)
	if err != nil || n < 0 {
		return helper{}, fmt.Errorf("helper %q: bad argument index %q", s, idx)
	}
	slash := strings.LastIndex(spec, "/")
	dot := strings.Index(spec[slash+1:], ".")
	if dot < 0 {
		return helper{}, fmt.Errorf("helper %q: want pkg.Func:N", s)
	}
	pkg, rest := spec[:slash+1+dot], spec[slash+1+dot+1:]
	id := flow.FuncID{Pkg: pkg, Name: rest}
	if recv, name, isMethod := strings.Cut(rest, "."); isMethod {
		id.Recv, id.Name = strings.Trim(recv, "(*)"), name
	}
	return helper{id: id, arg: n, summarise: func(*site, *Scope) {}}, nil
}
