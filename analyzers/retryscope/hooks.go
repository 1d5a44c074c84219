package retryscope

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
	"golang.org/x/tools/go/ssa"
)

// The model's own code for what the library tables (internal/knowledge) cannot say: whether a
// call retries at all, and refinements of a summary. Teaching the model a library is a table
// entry there, and here only what needs the model's machinery.

// A hook is what the model's code says of a library where its table cannot.
type hook struct {
	// when says whether a call retries at all (failsafe-go without a retry policy does not);
	// nil: always.
	when func(c *site, e *entry) bool
	// adjust, if set, refines a summary where a table cannot say it (k8s Backoff's Factor).
	adjust func(c *site, s *Scope, vals []ssa.Value)
}

// A library is one of knowledge's retry libraries with its hook.
type library struct {
	*knowledge.Library
	hook
}

var hooks = map[*knowledge.Library]hook{
	knowledge.KubernetesWait:        {adjust: k8sAdjust},
	knowledge.FailsafeGo:            {when: failsafeRetries},
	knowledge.Gax:                   {when: gaxRetries},
	knowledge.IdemlintTransport:     {when: retryhttpRetries, adjust: retryhttpAttempts},
	knowledge.RetryableHTTP:         {adjust: retryableHTTPAdjust},
	knowledge.RetryableHTTPStandard: {when: standardRetries, adjust: standardSettings},
	knowledge.Resty:                 {when: restyRetries},
	knowledge.Stripe:                {when: stripeRetries, adjust: stripeAttempts},
	knowledge.Minio:                 {when: takesContext},
	knowledge.CloudStorage:          {when: gcsRetries},
	knowledge.Azure:                 {when: azureRetries},
	knowledge.ORASTransport:         {when: orasRetries},
}

// libraries are knowledge's retry libraries, in its order, with their hooks.
var libraries []*library

func init() { // not a variable's initializer: hooks refer to libraries
	for _, k := range knowledge.Libraries {
		libraries = append(libraries, &library{Library: k, hook: hooks[k]})
	}
}

// libraryOf returns the model's library of k.
func libraryOf(k *knowledge.Library) *library {
	for _, lib := range libraries {
		if lib.Library == k {
			return lib
		}
	}
	panic("retryscope: library not in knowledge.Libraries: " + k.Name)
}

// failsafeRetries: a call retries only with a retry policy among its policies.
func failsafeRetries(c *site, e *entry) bool {
	vals := append([]ssa.Value{c.Recv}, c.Args...)
	for _, call := range c.calls(vals...) {
		if flow.ID(flow.Callee(call.Common())).Pkg == "github.com/failsafe-go/failsafe-go/retrypolicy" {
			return true
		}
	}
	return false
}

// gaxRetries: Invoke with no options calls once.
func gaxRetries(c *site, e *entry) bool {
	elems, known := flow.Elems(c.Arg(2))
	return !known || len(elems) > 0
}

// retryhttpRetries: a client retries in its transport only when that is a retryhttp.Transport.
func retryhttpRetries(c *site, e *entry) bool {
	return retryhttpClient(c) != nil
}

// retryhttpAttempts: the attempts the Transport's Policy sets.
func retryhttpAttempts(c *site, s *Scope, vals []ssa.Value) {
	p, ok := fieldStores(fieldStores(retryhttpClient(c))["Transport"])["Policy"]
	if !ok {
		return
	}
	if v, ok := fieldStores(p)["MaxAttempts"]; ok {
		s.Attempts = knowledge.AttemptsOf(0).ZeroMeans(knowledge.AtMost(4)).NegativeMeans(knowledge.AtMost(4)).Of(v)
	}
}

// standardRetries: an *http.Client retries only when StandardClient made it.
func standardRetries(c *site, e *entry) bool {
	return standardClientOf(c) != nil
}

// standardSettings: its settings are those of the retryablehttp client it was made from.
func standardSettings(c *site, s *Scope, vals []ssa.Value) {
	if std := standardClientOf(c); std != nil {
		base := &site{Site: flow.Site{Recv: std.Call.Args[0]}, call: std, stores: c.stores}
		asRetryableHTTP(base, s)
	}
}

// retryableHTTPAdjust refines a retryablehttp client's summary: the deadline its request
// carries (requestDeadline), and what a literal leaves zero. A Client{} literal, unlike
// NewClient's, sends once unless RetryMax is set, and the library's backoffs
// (DefaultBackoff, LinearJitterBackoff, the default when Backoff is unset) scale its
// RetryWaitMin and RetryWaitMax: left zero, the attempts follow each other at once.
func retryableHTTPAdjust(c *site, s *Scope, vals []ssa.Value) {
	requestDeadline(c, s, vals)
	set := func(name string) bool {
		return slices.ContainsFunc(s.Settings, func(x Setting) bool { return x.Name == name })
	}
	if !set("Client{}") || set("NewClient") {
		return
	}
	if !set("Client.RetryMax") {
		s.Attempts = *knowledge.Once
	}
	if set("Client.RetryWaitMin") || set("Client.RetryWaitMax") {
		return
	}
	i := slices.IndexFunc(s.Settings, func(x Setting) bool { return x.Name == "Client.Backoff" })
	if i < 0 {
		s.Wait.Kind = WaitNone
	} else if fn, ok := flow.Unwrap(s.Settings[i].Value).(*ssa.Function); ok && libraryOf(knowledge.RetryableHTTP).hasFunc(fn) {
		s.Wait.Kind = WaitNone // retryablehttp.DefaultBackoff, LinearJitterBackoff
	}
}

// asRetryableHTTP summarises s as a call of the retryablehttp client at base's receiver (a
// StandardClient's, or one handed to another package): its defaults and what sets them.
func asRetryableHTTP(base *site, s *Scope) {
	rh := libraryOf(knowledge.RetryableHTTP)
	rh.summarise(base, &rh.Clients[0], s)
}

// restyRetries: a client retries only once SetRetryCount gives it retries.
func restyRetries(c *site, e *entry) bool {
	vals := append([]ssa.Value{c.Recv}, c.mutators(libraryOf(knowledge.Resty), []ssa.Value{c.Recv})...)
	for _, call := range c.calls(vals...) {
		if id := flow.ID(flow.Callee(call.Common())); id.Name == "SetRetryCount" && slices.Contains(knowledge.RestyPaths, id.Pkg) {
			args := call.Common().Args
			n, isConst := flow.IntConst(args[len(args)-1])
			return !isConst || n > 0
		}
	}
	return false
}

// stripeRetries: calls that send a *Params request go through the retrying backend.
func stripeRetries(c *site, e *entry) bool {
	return slices.ContainsFunc(c.Args, func(a ssa.Value) bool {
		n := namedOf(a.Type())
		return n != nil && strings.HasSuffix(n.Obj().Name(), "Params") && n.Obj().Pkg() != nil &&
			strings.HasPrefix(n.Obj().Pkg().Path(), "github.com/stripe/stripe-go")
	})
}

// stripeAttempts: before v71 MaxNetworkRetries was 0 by default.
func stripeAttempts(c *site, s *Scope, vals []ssa.Value) {
	if fn := flow.Callee(c.call.Common()); fn != nil && fn.Pkg() != nil && major(fn.Pkg().Path()) < 71 {
		s.Attempts = *knowledge.Once // MaxNetworkRetries was 0 by default before v71
	}
}

// gcsRetries: an operation that is idempotent only under a precondition is retried only with it, or with RetryAlways.
func gcsRetries(c *site, e *entry) bool {
	if !takesContext(c, e) {
		return false
	}
	switch flow.Callee(c.call.Common()).Name() {
	case "NewWriter", "Delete", "Update":
		if e.Recv != "ObjectHandle" {
			return true
		}
		for _, call := range c.calls(c.Recv) {
			fn := flow.Callee(call.Common())
			switch id := flow.ID(fn); {
			case id == gcsHandle("If") || id == gcsHandle("Generation"):
				return true // conditional: idempotent
			case id == flow.FuncID{Pkg: gcsHandle("").Pkg, Name: "WithPolicy"} && len(call.Call.Args) == 1:
				k, isConst := call.Call.Args[0].(*ssa.Const)
				always, known := fn.Pkg().Scope().Lookup("RetryAlways").(*types.Const)
				if isConst && known && k.Value != nil && constant.Compare(k.Value, token.EQL, always.Val()) {
					return true // every operation retried
				}
			}
		}
		return false // conditionally idempotent without its condition: sent once
	}
	return true
}

// azureRetries: clients' methods taking a context, and the Service Bus links a client makes.
func azureRetries(c *site, e *entry) bool {
	if c.Recv == nil {
		return false
	}
	n := namedOf(c.Recv.Type())
	return takesContext(c, e) && n != nil && (strings.HasSuffix(n.Obj().Name(), "Client") || knowledge.AzureRetryingLinks[n.Obj().Name()] && n.Obj().Pkg() != nil && strings.HasSuffix(n.Obj().Pkg().Path(), "/messaging/azservicebus"))
}

// orasRetries: an http.Client made by retry.NewClient, retry.DefaultClient or over a retry.Transport.
func orasRetries(c *site, e *entry) bool {
	if hasCall(c.calls(c.Recv), knowledge.ORASRetryPath, "NewClient") {
		return true
	}
	for _, v := range c.origins(c.Recv) {
		if loadsGlobal(v, knowledge.ORASRetryPath, "DefaultClient") {
			return true
		}
		if t, ok := fieldStores(v)["Transport"]; ok && (isAllocOf(t, knowledge.ORASRetryPath, "Transport") || hasCall(c.calls(t), knowledge.ORASRetryPath, "NewTransport")) {
			return true
		}
	}
	return false
}

// k8sAdjust refines a k8s wait or retry scope (k8sFactor, k8sCondition).
func k8sAdjust(c *site, s *Scope, vals []ssa.Value) {
	k8sFactor(c, s, vals)
	k8sCondition(c, s)
}

// k8sCondition: wait.ExponentialBackoff goes round only when its condition returns false and
// no error; an error ends it. A condition that returns (false, nil) only after its calls
// succeeded (on the nil side of their error tests) waits for a state the answer reports (a
// volume not available yet): a poll, not a retry of a failure, which jitter need not spread.
func k8sCondition(c *site, s *Scope) {
	callee := flow.Callee(c.call.Common())
	if callee == nil || callee.Name() != "ExponentialBackoff" && callee.Name() != "ExponentialBackoffWithContext" || len(c.Args) == 0 {
		return
	}
	fn := localFunc(c.Args[len(c.Args)-1])
	if fn == nil || fn.Signature.Results().Len() != 2 {
		return
	}
	ls := loops.Of(fn)
	round := false
	for ret := range flow.Returns(fn) {
		if len(ret.Results) != 2 || ret.Block() == fn.Recover {
			continue
		}
		if isTrue(ret.Results[0]) || notNil(ret.Results[1], ret.Block()) {
			continue // done, or ended by an error
		}
		if !afterSuccess(ret.Block(), ls) {
			return // it may go round on a failure it swallowed
		}
		round = true
	}
	s.Poll = s.Poll || round
}

// notNil reports whether err, returned in block b, is certainly not nil: a constant that is
// not nil, or an error on the non-nil side of a test of it above b.
func notNil(err ssa.Value, b *ssa.BasicBlock) bool {
	if flow.IsNil(err) {
		return false
	}
	if _, isConst := flow.Unwrap(err).(*ssa.Const); isConst {
		return true
	}
	for ifInstr, side := range flow.TestsAbove(b) {
		if errv, nilSide := testedError(ifInstr); errv != nil && errv == err && side >= 0 && side != nilSide {
			return true
		}
	}
	return false
}

// k8sFactor: a Backoff literal whose Factor grows the delay and that has no jitter backs off.
func k8sFactor(c *site, s *Scope, vals []ssa.Value) {
	if s.Wait.Kind != WaitFixed {
		return
	}
	for _, set := range s.Settings {
		if set.Name != "Backoff.Factor" {
			continue
		}
		if f, isConst := flow.FloatConst(set.Value); !isConst || f > 1 {
			s.Wait.Kind = WaitBackoff
		}
	}
}

// standardClientOf returns the StandardClient call that made the receiver of c, or nil: in
// view, or returned by a constructor of the package (hc: newDriverClient(cfg)).
func standardClientOf(c *site) *ssa.Call {
	isStandard := func(call *ssa.Call) bool {
		id := flow.ID(flow.Callee(call.Common()))
		return id.Pkg == knowledge.RetryableHTTPPath && id.Name == "StandardClient"
	}
	for _, call := range c.calls(c.Recv) {
		if isStandard(call) {
			return call
		}
		ctor := call.Call.StaticCallee()
		if ctor == nil || ctor.Pkg == nil || c.call == nil || ctor.Pkg != c.call.Parent().Pkg || len(ctor.Blocks) == 0 {
			continue
		}
		for ret := range flow.Returns(ctor) {
			if len(ret.Results) == 0 {
				continue
			}
			for _, inner := range c.calls(ret.Results[0]) {
				if isStandard(inner) {
					return inner
				}
			}
		}
	}
	return nil
}

// retryhttpClient returns the http.Client value, the receiver or what the field or variable
// it comes from holds, whose Transport is a runtime/retry/retryhttp.Transport; nil if none.
func retryhttpClient(c *site) ssa.Value {
	for _, v := range c.origins(c.Recv) {
		if t, ok := fieldStores(v)["Transport"]; ok && isAllocOf(t, knowledge.RetryHTTPPath, "Transport") {
			return v
		}
	}
	return nil
}

// gcsHandle names a method of Cloud Storage's ObjectHandle.
func gcsHandle(name string) flow.FuncID {
	return flow.FuncID{Pkg: "cloud.google.com/go/storage", Recv: "ObjectHandle", Name: name}
}

// takesContext: a client method that sends a request takes its context first.
func takesContext(c *site, e *entry) bool {
	return len(c.Args) > 0 && typeis.Context(c.Args[0].Type())
}

// namedOf returns the named type t is or points to.
func namedOf(t types.Type) *types.Named {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	return n
}

// major returns the major version of a module path's /vN element (1 when it has none).
func major(path string) int {
	for _, part := range strings.Split(path, "/") {
		if len(part) > 1 && part[0] == 'v' {
			if n, err := strconv.Atoi(part[1:]); err == nil {
				return n
			}
		}
	}
	return 1
}

// knowledgeOf returns lib's table, or nil for no library.
func (lib *library) knowledgeOf() *knowledge.Library {
	if lib == nil {
		return nil
	}
	return lib.Library
}
