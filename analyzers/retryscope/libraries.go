package retryscope

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// The retry libraries, self-retrying clients and their settings, as the model knows them.
// Attempts always count calls of the retried function (first call included); where a library
// counts retries, its count has plus 1. Read each library's source at the versions users have
// before changing an entry: defaults and the meaning of 0 differ between major versions.

func bound(n int) *Bound { return &Bound{Kind: BoundConst, N: n} }

var libraries = []*library{
	avastRetryGo, avastRetryGoV2,
	cenkaltiBackoffV4, cenkaltiBackoffV5,
	sethvargoRetry,
	kubernetesWait,
	failsafeGo,
	gaxGo,
	idemlintRetry,
	retryablehttpClient, retryablehttpStandard, idemlintTransport,
	restyClient,
	awsSDK, stripeGo, minioGo, gcsStorage, azureSDK, orasTransport,
	terraformSDK,
	buildkiteRoko,
	matryerTry,
}

// avast/retry-go v4 and v5. Do(fn, opts...), DoWithData(fn, opts...); v5: New(opts...).Do(fn).
// Defaults: 10 attempts, CombineDelay(BackOffDelay, RandomDelay) from 100 ms, no context.
// Attempts(0) and UntilSucceeded() retry until success.
var avastRetryGo = &library{
	capHint: "add retry.Attempts(4)", deadlineHint: "add retry.Context(%s)",
	name:  "avast/retry-go v4+",
	paths: versions("github.com/avast/retry-go", 4, 5),
	helpers: []entry{
		{names: []string{"Do", "DoWithData"}, arg: 0, config: []int{1}, ctx: -1},
		{recv: "Retrier", names: []string{"Do"}, arg: 0, config: []int{-1}, ctx: -1},
		{recv: "RetrierWithData", names: []string{"Do"}, arg: 0, config: []int{-1}, ctx: -1},
	},
	defaults: summary{*bound(10), WaitJittered, DeadlineNone},
	settings: map[string]setting{
		"Attempts":       {arg: 0, attempts: attemptsOf(0).zeroMeans(unbounded)},
		"UntilSucceeded": {bound: unbounded},
		"DelayType":      {arg: 0, waitBy: retryGoDelays},
		"Context":        {arg: 0, deadline: DeadlineContext},
		"RetryIf":        {arg: 0}, // which errors it retries (see Resends)
	},
}

var retryGoDelays = map[string]WaitKind{
	"RandomDelay": WaitJittered, "FullJitterBackoffDelay": WaitJittered,
	"BackOffDelay": WaitBackoff, "FixedDelay": WaitFixed,
}

// avast/retry-go v2 and v3: as v4, but Attempts(0) never calls the function, and the default
// delay was an unjittered BackOffDelay before v2.5, which the import path cannot tell apart.
var avastRetryGoV2 = &library{
	capHint: "add retry.Attempts(4)", deadlineHint: "add retry.Context(%s)",
	name:     "avast/retry-go v2, v3",
	paths:    versions("github.com/avast/retry-go", 1, 3),
	helpers:  []entry{{names: []string{"Do"}, arg: 0, config: []int{1}, ctx: -1}},
	defaults: summary{*bound(10), WaitUnknown, DeadlineNone},
	settings: map[string]setting{
		"Attempts":  {arg: 0, attempts: attemptsOf(0).zeroMeans(never)},
		"DelayType": {arg: 0, waitBy: retryGoDelays},
		"Context":   {arg: 0, deadline: DeadlineContext},
		"RetryIf":   {arg: 0},
	},
}

// cenkalti/backoff up to v4: Retry(op, b) and friends, with a BackOff value that says
// everything. NewExponentialBackOff: jitter 0.5, no cap on attempts, 15 minutes of elapsed
// time; a literal has neither jitter nor elapsed limit unless its fields say so.
var cenkaltiBackoffV4 = &library{
	capHint: "wrap the BackOff in backoff.WithMaxRetries(b, 3)", deadlineHint: "wrap the BackOff in backoff.WithContext(b, %s)",
	name:  "cenkalti/backoff v1-v4",
	paths: versions("github.com/cenkalti/backoff", 1, 3, 4),
	helpers: []entry{{
		names: []string{"Retry", "RetryNotify", "RetryNotifyWithTimer", "RetryWithData", "RetryNotifyWithData", "RetryNotifyWithTimerAndData"},
		arg:   0, config: []int{1}, ctx: -1,
	}},
	defaults: summary{Bound{Kind: BoundUnknown}, WaitUnknown, DeadlineNone},
	settings: map[string]setting{
		"NewExponentialBackOff":                  {layer: 0, bound: unbounded, wait: WaitJittered, deadline: DeadlineElapsed},
		"ExponentialBackOff{}":                   {layer: 0, bound: unbounded, wait: WaitBackoff, deadline: DeadlineNone},
		"ExponentialBackOff.RandomizationFactor": {layer: 1, wait: WaitJittered, zeroWait: WaitBackoff},
		"ExponentialBackOff.MaxElapsedTime":      {layer: 1, deadline: DeadlineElapsed, zeroDead: DeadlineNone},
		"WithRandomizationFactor":                {layer: 1, arg: 0, wait: WaitJittered, zeroWait: WaitBackoff},
		"WithMaxElapsedTime":                     {layer: 1, arg: 0, deadline: DeadlineElapsed, zeroDead: DeadlineNone},
		"NewConstantBackOff":                     {layer: 0, bound: unbounded, wait: WaitFixed},
		"ConstantBackOff{}":                      {layer: 0, bound: unbounded, wait: WaitFixed},
		"ZeroBackOff{}":                          {layer: 0, bound: unbounded, wait: WaitNone},
		"StopBackOff{}":                          {layer: 0, bound: once, wait: WaitNone},
		"WithMaxRetries":                         {layer: 1, arg: 1, attempts: attemptsOf(1)},
		"WithContext":                            {layer: 1, arg: 1, deadline: DeadlineContext},
	},
}

// cenkalti/backoff v5: Retry[T](ctx, op, opts...). Defaults: NewExponentialBackOff (jittered),
// no cap on tries, 15 minutes of elapsed time. WithMaxTries counts attempts, 0 is no cap.
var cenkaltiBackoffV5 = &library{
	capHint: "add backoff.WithMaxTries(4)", deadlineHint: "pass %s to backoff.Retry",
	name:     "cenkalti/backoff v5",
	paths:    versions("github.com/cenkalti/backoff", 5),
	helpers:  []entry{{names: []string{"Retry"}, arg: 1, config: []int{2}, ctx: 0}},
	defaults: summary{Bound{Kind: BoundNone}, WaitJittered, DeadlineElapsed},
	settings: map[string]setting{
		"NewExponentialBackOff":                  {layer: 0, wait: WaitJittered},
		"ExponentialBackOff{}":                   {layer: 0, wait: WaitBackoff},
		"ExponentialBackOff.RandomizationFactor": {layer: 1, wait: WaitJittered, zeroWait: WaitBackoff},
		"NewConstantBackOff":                     {layer: 0, wait: WaitFixed},
		"ConstantBackOff{}":                      {layer: 0, wait: WaitFixed},
		"ZeroBackOff{}":                          {layer: 0, wait: WaitNone},
		"StopBackOff{}":                          {layer: 0, bound: once, wait: WaitNone},
		"WithMaxTries":                           {layer: 1, arg: 0, attempts: attemptsOf(0).zeroMeans(unbounded)},
		"WithMaxElapsedTime":                     {layer: 1, arg: 0, deadline: DeadlineElapsed, zeroDead: DeadlineNone},
	},
}

// sethvargo/go-retry: Do(ctx, b, f), DoValue(ctx, b, f), and Constant/Exponential/Fibonacci
// (ctx, d, f). Backoffs never stop and are not jittered unless wrapped; WithMaxRetries counts
// retries. WithFullJitter exists since v0.4.0.
var sethvargoRetry = &library{
	capHint: "wrap the backoff in retry.WithMaxRetries(3, b)", deadlineHint: "pass %s to retry.Do",
	name:  "sethvargo/go-retry",
	paths: []string{"github.com/sethvargo/go-retry"},
	helpers: []entry{
		{names: []string{"Do", "DoValue"}, arg: 2, config: []int{1}, ctx: 0},
		{names: []string{"Exponential", "Fibonacci"}, arg: 2, ctx: 0, over: &summary{Bound{Kind: BoundNone}, WaitBackoff, DeadlineNone}},
		{names: []string{"Constant"}, arg: 2, ctx: 0, over: &summary{Bound{Kind: BoundNone}, WaitFixed, DeadlineNone}},
	},
	defaults: summary{Bound{Kind: BoundNone}, WaitUnknown, DeadlineNone},
	settings: map[string]setting{
		"NewExponential":    {layer: 0, wait: WaitBackoff},
		"NewFibonacci":      {layer: 0, wait: WaitBackoff},
		"NewConstant":       {layer: 0, wait: WaitFixed},
		"WithJitter":        {layer: 1, arg: 0, wait: WaitJittered, zeroWait: keepWait},
		"WithJitterPercent": {layer: 1, arg: 0, wait: WaitJittered, zeroWait: keepWait},
		"WithFullJitter":    {layer: 1, wait: WaitJittered},
		"WithMaxRetries":    {layer: 1, arg: 0, attempts: attemptsOf(1)},
		"WithMaxDuration":   {layer: 1, arg: 0, deadline: DeadlineElapsed, zeroDead: keepDeadline},
	},
}

// Kubernetes: client-go retry.RetryOnConflict(backoff, fn), retry.OnError(backoff, retriable,
// fn); apimachinery wait.ExponentialBackoff(backoff, cond), ExponentialBackoffWithContext(ctx,
// backoff, cond), and the Poll family, which polls a condition at a fixed interval. A Backoff's
// Steps counts attempts (0: the function is never called); Jitter > 0 randomises; Factor > 1
// grows the delay. DefaultRetry: 5 attempts, DefaultBackoff: 4, both jittered.
var kubernetesWait = &library{
	capHint: "set the Backoff's Steps", deadlineHint: "use wait.ExponentialBackoffWithContext(%s, ...)",
	name:  "k8s.io client-go retry, apimachinery wait",
	paths: []string{"k8s.io/client-go/util/retry", "k8s.io/apimachinery/pkg/util/wait"},
	helpers: []entry{
		{names: []string{"RetryOnConflict"}, arg: 1, config: []int{0}, ctx: -1},
		{names: []string{"OnError"}, arg: 2, config: []int{0}, ctx: -1},
		{names: []string{"ExponentialBackoff"}, arg: 1, config: []int{0}, ctx: -1},
		{names: []string{"ExponentialBackoffWithContext"}, arg: 2, config: []int{1}, ctx: 0},
		{names: []string{"PollUntilContextTimeout"}, arg: 4, ctx: 0, over: &summary{Bound{Kind: BoundNone}, WaitFixed, DeadlineElapsed}, poll: true},
		{names: []string{"PollUntilContextCancel"}, arg: 3, ctx: 0, over: &summary{Bound{Kind: BoundNone}, WaitFixed, DeadlineNone}, poll: true},
		{names: []string{"Poll", "PollImmediate"}, arg: 2, ctx: -1, over: &summary{Bound{Kind: BoundNone}, WaitFixed, DeadlineElapsed}, poll: true},
		{names: []string{"PollWithContext", "PollImmediateWithContext"}, arg: 3, ctx: 0, over: &summary{Bound{Kind: BoundNone}, WaitFixed, DeadlineElapsed}, poll: true},
		{names: []string{"PollInfinite", "PollImmediateInfinite"}, arg: 1, ctx: -1, over: &summary{Bound{Kind: BoundNone}, WaitFixed, DeadlineNone}, poll: true},
		{names: []string{"PollInfiniteWithContext", "PollImmediateInfiniteWithContext"}, arg: 2, ctx: 0, over: &summary{Bound{Kind: BoundNone}, WaitFixed, DeadlineNone}, poll: true},
	},
	defaults: summary{Bound{Kind: BoundUnknown}, WaitUnknown, DeadlineNone},
	settings: map[string]setting{
		"DefaultRetry":   {layer: 0, bound: bound(5), wait: WaitJittered, brief: true}, // 4 waits of about 10 ms
		"DefaultBackoff": {layer: 0, bound: bound(4), wait: WaitJittered, brief: true}, // 10, 50, 250 ms
		"Backoff{}":      {layer: 0, bound: never, wait: WaitFixed},
		"Backoff.Steps":  {layer: 1, attempts: attemptsOf(0).zeroMeans(never).negativeMeans(never)},
		"Backoff.Factor": {layer: 1}, // see k8sFactor
		"Backoff.Jitter": {layer: 1, wait: WaitJittered, zeroWait: keepWait},
	},
	adjust: k8sFactor,
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

// failsafe-go: Run(fn, policies...), Get(fn, policies...) (up to v0.8), and the Executor's
// methods (With(policies...).Run(fn)); they retry only with a retry policy among the
// policies. A retry policy's defaults: 2 retries (3 attempts), no delay. WithMaxRetries(-1)
// and WithMaxAttempts(0 or -1) retry without end.
var failsafeGo = &library{
	capHint: "set WithMaxRetries(3) on the retry policy", deadlineHint: "run it with .WithContext(%s)",
	name:  "failsafe-go",
	paths: []string{"github.com/failsafe-go/failsafe-go", "github.com/failsafe-go/failsafe-go/retrypolicy"},
	helpers: []entry{
		{names: []string{"Run", "Get", "RunWithExecution", "GetWithExecution"}, arg: 0, config: []int{1}, ctx: -1},
		{recv: "Executor", names: []string{"Run", "Get", "RunWithExecution", "GetWithExecution", "RunAsync", "GetAsync", "RunAsyncWithExecution", "GetAsyncWithExecution"}, arg: 0, config: []int{-1}, ctx: -1},
	},
	defaults: summary{*bound(3), WaitNone, DeadlineNone},
	settings: map[string]setting{
		"WithMaxRetries":    {layer: 1, arg: 0, attempts: attemptsOf(1).negativeMeans(unbounded)},
		"WithMaxAttempts":   {layer: 1, arg: 0, attempts: attemptsOf(0).zeroMeans(unbounded).negativeMeans(unbounded)},
		"WithDelay":         {layer: 1, wait: WaitFixed},
		"WithDelayFunc":     {layer: 1, arg: 0, waitBy: map[string]WaitKind{}},
		"WithBackoff":       {layer: 1, wait: WaitBackoff},
		"WithBackoffFactor": {layer: 1, wait: WaitBackoff},
		"WithRandomDelay":   {layer: 1, wait: WaitJittered},
		"WithJitter":        {layer: 1, wait: WaitJittered},
		"WithJitterFactor":  {layer: 1, wait: WaitJittered},
		"WithMaxDuration":   {layer: 1, deadline: DeadlineElapsed},
		"WithContext":       {layer: 1, arg: 0, deadline: DeadlineContext},
	},
	when: func(c *site, e *entry) bool {
		vals := append([]ssa.Value{c.Recv}, c.Args...)
		for _, call := range c.calls(vals...) {
			if flow.ID(flow.Callee(call.Common())).Pkg == "github.com/failsafe-go/failsafe-go/retrypolicy" {
				return true
			}
		}
		return false
	},
}

// gax-go: Invoke(ctx, call, opts...) retries per its CallOptions (full jitter, no cap on
// attempts, until the context ends); with no options it calls once.
var gaxGo = &library{
	capHint: "give the context a deadline, or add gax.WithTimeout", deadlineHint: "pass %s to gax.Invoke",
	name:     "googleapis/gax-go",
	paths:    versions("github.com/googleapis/gax-go", 1, 2),
	helpers:  []entry{{names: []string{"Invoke"}, arg: 1, config: []int{2}, ctx: 0}},
	defaults: summary{Bound{Kind: BoundNone}, WaitJittered, DeadlineNone},
	settings: map[string]setting{"WithTimeout": {layer: 1, deadline: DeadlineElapsed}},
	when: func(c *site, e *entry) bool {
		elems, known := flow.Elems(c.Arg(2))
		return !known || len(elems) > 0
	},
}

// This project's runtime: retry.Do(ctx, policy, fn), retry.DoValue(ctx, policy, fn).
// Defaults: 4 attempts, full jitter, the context's deadline and the policy's Timeout.
var idemlintRetry = &library{
	capHint: "set Policy.MaxAttempts", deadlineHint: "pass %s to retry.Do",
	name:     "idemlint runtime/retry",
	paths:    []string{"github.com/idemlint/idemlint/runtime/retry"},
	helpers:  []entry{{names: []string{"Do", "DoValue"}, arg: 2, config: []int{1}, ctx: 0}},
	defaults: summary{*bound(4), WaitJittered, DeadlineNone},
	settings: map[string]setting{
		"Policy.MaxAttempts": {layer: 1, attempts: attemptsOf(0).zeroMeans(bound(4)).negativeMeans(bound(4))},
		"Policy.Timeout":     {layer: 1, deadline: DeadlineElapsed, zeroDead: keepDeadline},
		"Policy.Classify":    {layer: 1}, // which errors it retries (see Resends)
		"Policy.Idempotent":  {layer: 1},
	},
}

const retryablehttpPath = "github.com/hashicorp/go-retryablehttp"

// hashicorp/go-retryablehttp: a Client retries requests (POST included) up to RetryMax
// retries (default 4: 5 attempts) with DefaultBackoff, exponential without jitter;
// LinearJitterBackoff jitters. The package's Get/Post/... use a default client.
var retryablehttpClient = &library{
	capHint: "set RetryMax", deadlineHint: "use NewRequestWithContext(%s, ...)",
	name:  "hashicorp/go-retryablehttp",
	paths: []string{retryablehttpPath},
	clients: []entry{
		{recv: "Client", names: []string{"Do", "Get", "Head", "Post", "PostForm"}, config: []int{-1}, ctx: -1},
		{recv: "", names: []string{"Get", "Head", "Post", "PostForm"}, ctx: -1},
	},
	defaults: summary{*bound(5), WaitBackoff, DeadlineUnknown},
	settings: retryablehttpSettings,
	made:     []string{"NewClient", "Client{}"},
	adjust:   requestDeadline,
}

var retryablehttpSettings = map[string]setting{
	"NewClient":         {layer: 0}, // where the client is made
	"Client{}":          {layer: 0},
	"Client.RetryMax":   {layer: 1, attempts: attemptsOf(1).negativeMeans(once)},
	"Client.CheckRetry": {layer: 1}, // which failures it retries (see Resends)
	"Client.Backoff": {layer: 1, waitBy: map[string]WaitKind{
		"LinearJitterBackoff": WaitJittered, "RateLimitLinearJitterBackoff": WaitJittered, "DefaultBackoff": WaitBackoff,
	}},
}

// An *http.Client made by retryablehttp's StandardClient retries in its transport, as the
// retryablehttp client it was made from.
var retryablehttpStandard = &library{
	name:     "net/http over go-retryablehttp",
	paths:    []string{"net/http"},
	clients:  []entry{{recv: "Client", names: []string{"Do", "Get", "Head", "Post", "PostForm"}, config: []int{-1}, ctx: -1}},
	defaults: summary{*bound(5), WaitBackoff, DeadlineUnknown},
	when: func(c *site, e *entry) bool {
		return standardClientOf(c) != nil
	},
	adjust: func(c *site, s *Scope, vals []ssa.Value) {
		if std := standardClientOf(c); std != nil {
			base := &site{Site: flow.Site{Recv: std.Call.Args[0]}, call: std, stores: c.stores}
			retryablehttpClient.summarise(base, &retryablehttpClient.clients[0], s)
		}
	},
}

// standardClientOf returns the StandardClient call that made the receiver of c, or nil: in
// view, or returned by a constructor of the package (hc: newDriverClient(cfg)).
func standardClientOf(c *site) *ssa.Call {
	isStandard := func(call *ssa.Call) bool {
		id := flow.ID(flow.Callee(call.Common()))
		return id.Pkg == retryablehttpPath && id.Name == "StandardClient"
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

const retryhttpPath = "github.com/idemlint/idemlint/runtime/retry/retryhttp"

// An *http.Client whose Transport is this project's retryhttp.Transport: its Policy's
// attempts (4 by default), full jitter, the request's context.
var idemlintTransport = &library{
	name:     "net/http over idemlint retryhttp",
	paths:    []string{"net/http"},
	clients:  []entry{{recv: "Client", names: []string{"Do", "Get", "Head", "Post", "PostForm"}, config: []int{-1}, ctx: -1}},
	defaults: summary{*bound(4), WaitJittered, DeadlineContext},
	when: func(c *site, e *entry) bool {
		return retryhttpClient(c) != nil
	},
	adjust: func(c *site, s *Scope, vals []ssa.Value) {
		p, ok := fieldStores(fieldStores(retryhttpClient(c))["Transport"])["Policy"]
		if !ok {
			return
		}
		if v, ok := fieldStores(p)["MaxAttempts"]; ok {
			s.Attempts = attemptsOf(0).zeroMeans(bound(4)).negativeMeans(bound(4)).bound(v)
		}
	},
}

// retryhttpClient returns the http.Client value, the receiver or what the field or variable
// it comes from holds, whose Transport is a runtime/retry/retryhttp.Transport; nil if none.
func retryhttpClient(c *site) ssa.Value {
	for _, v := range c.origins(c.Recv) {
		if t, ok := fieldStores(v)["Transport"]; ok && isAllocOf(t, retryhttpPath, "Transport") {
			return v
		}
	}
	return nil
}

// resty retries when its client has a retry count (retries; 0, the default, is off), with
// jittered waits. v3 retries only idempotent methods unless told otherwise.
var restyPaths = []string{"github.com/go-resty/resty/v2", "resty.dev/v3"}

var restyClient = &library{
	name:  "go-resty/resty v2, resty.dev/v3",
	paths: restyPaths,
	clients: []entry{{
		recv:   "Request",
		names:  []string{"Get", "Post", "Put", "Patch", "Delete", "Head", "Options", "Execute", "Send"},
		config: []int{-1}, ctx: -1,
	}},
	defaults: summary{*once, WaitJittered, DeadlineUnknown},
	settings: map[string]setting{
		"SetRetryCount":              {layer: 1, arg: 0, attempts: attemptsOf(1).negativeMeans(once)},
		"SetRetryAllowNonIdempotent": {layer: 1, arg: 0}, // v3: POST and PATCH are retried too (see Resends)
	},
	when: func(c *site, e *entry) bool {
		for _, call := range c.calls(c.Recv) {
			if id := flow.ID(flow.Callee(call.Common())); id.Name == "SetRetryCount" && slices.Contains(restyPaths, id.Pkg) {
				args := call.Common().Args
				n, isConst := flow.IntConst(args[len(args)-1])
				return !isConst || n > 0
			}
		}
		return false
	},
}

// AWS SDK for Go v2 service clients: the standard retryer, 3 attempts, jittered, bounded by
// the context. RetryMaxAttempts (the client's Options, the Config, config.WithRetryMaxAttempts)
// counts attempts, 0 keeping the default and a negative value none; aws.NopRetryer never
// retries; retry.AddWithMaxAttempts(r, 0) removes the cap.
var awsSDK = &library{
	name:     "aws-sdk-go-v2 service clients",
	paths:    []string{"github.com/aws/aws-sdk-go-v2/service/", "github.com/aws/aws-sdk-go-v2/config", "github.com/aws/aws-sdk-go-v2/aws"},
	prefix:   true,
	clients:  []entry{{recv: "Client", config: []int{-1}, ctx: 0}},
	defaults: summary{*bound(3), WaitJittered, DeadlineNone},
	settings: map[string]setting{
		"Options.RetryMaxAttempts":     {layer: 1, attempts: awsAttempts},
		"Config.RetryMaxAttempts":      {layer: 1, attempts: awsAttempts},
		"LoadOptions.RetryMaxAttempts": {layer: 1, attempts: awsAttempts},
		"WithRetryMaxAttempts":         {layer: 1, arg: 0, attempts: awsAttempts},
		"NopRetryer{}":                 {layer: 1, bound: once},
		"AddWithMaxAttempts":           {layer: 1, arg: 1, attempts: attemptsOf(0).zeroMeans(unbounded)},
	},
}

var awsAttempts = attemptsOf(0).zeroMeans(bound(3)).negativeMeans(unbounded)

// stripe-go: every call that sends a *Params request goes through the backend, which retries
// network errors and 409/429/5xx MaxNetworkRetries times: 2 by default since v71 (3
// attempts), none before. It adds an idempotency key to the POSTs it retries.
var stripeGo = &library{
	name:     "stripe/stripe-go",
	paths:    []string{"github.com/stripe/stripe-go"},
	prefix:   true,
	clients:  []entry{{recv: "*", ctx: -1}},
	defaults: summary{*bound(3), WaitJittered, DeadlineUnknown},
	when: func(c *site, e *entry) bool {
		return slices.ContainsFunc(c.Args, func(a ssa.Value) bool {
			n := namedOf(a.Type())
			return n != nil && strings.HasSuffix(n.Obj().Name(), "Params") && n.Obj().Pkg() != nil &&
				strings.HasPrefix(n.Obj().Pkg().Path(), "github.com/stripe/stripe-go")
		})
	},
	adjust: func(c *site, s *Scope, vals []ssa.Value) {
		if fn := flow.Callee(c.call.Common()); fn != nil && fn.Pkg() != nil && major(fn.Pkg().Path()) < 71 {
			s.Attempts = *once // MaxNetworkRetries was 0 by default before v71
		}
	},
}

// minio-go v7: every request of a Client is attempted up to MaxRetry (10) times, with
// jittered backoff, bounded by the request's context.
var minioGo = &library{
	name:     "minio/minio-go",
	paths:    versions("github.com/minio/minio-go", 6, 7),
	clients:  []entry{{recv: "Client", ctx: 0}},
	defaults: summary{*bound(10), WaitJittered, DeadlineNone},
	when:     takesContext,
}

// Google Cloud Storage: idempotent operations are retried with jittered backoff until the
// context ends; Retryer(WithMaxAttempts(n)) caps them. An object's upload (NewWriter), Delete
// and Update are idempotent, and retried by the default policy, only under preconditions
// (If, Generation) on the handle; Retryer(WithPolicy(RetryAlways)) retries them regardless.
var gcsStorage = &library{
	name:     "cloud.google.com/go/storage",
	paths:    []string{"cloud.google.com/go/storage"},
	clients:  []entry{{recv: "ObjectHandle", config: []int{-1}, ctx: 0}, {recv: "BucketHandle", config: []int{-1}, ctx: 0}},
	defaults: summary{Bound{Kind: BoundNone}, WaitJittered, DeadlineNone},
	settings: map[string]setting{"WithMaxAttempts": {layer: 1, arg: 0, attempts: attemptsOf(0)}},
	when: func(c *site, e *entry) bool {
		if !takesContext(c, e) {
			return false
		}
		switch flow.Callee(c.call.Common()).Name() {
		case "NewWriter", "Delete", "Update":
			if e.recv != "ObjectHandle" {
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
	},
}

// gcsHandle names a method of Cloud Storage's ObjectHandle.
func gcsHandle(name string) flow.FuncID {
	return flow.FuncID{Pkg: "cloud.google.com/go/storage", Recv: "ObjectHandle", Name: name}
}

// Azure SDK for Go: every client's pipeline retries a request up to Retry.MaxRetries times (3
// by default: 4 attempts; -1: none) with jittered exponential backoff, bounded by the
// request's context. The options are given to the client's constructor.
var azureSDK = &library{
	name:     "Azure SDK for Go clients",
	paths:    []string{"github.com/Azure/azure-sdk-for-go/sdk/"},
	prefix:   true,
	clients:  []entry{{recv: "*", config: []int{-1}, ctx: 0}},
	defaults: summary{*bound(4), WaitJittered, DeadlineNone},
	settings: map[string]setting{
		"RetryOptions.MaxRetries": {layer: 1, attempts: attemptsOf(1).zeroMeans(bound(4)).negativeMeans(once)},
	},
	when: func(c *site, e *entry) bool {
		if c.Recv == nil {
			return false
		}
		n := namedOf(c.Recv.Type())
		return takesContext(c, e) && n != nil && (strings.HasSuffix(n.Obj().Name(), "Client") || azureRetryingLinks[n.Obj().Name()] && n.Obj().Pkg() != nil && strings.HasSuffix(n.Obj().Pkg().Path(), "/messaging/azservicebus"))
	},
}

// azureRetryingLinks are the azservicebus types, made by a Client, whose calls retry under
// the Client's RetryOptions too.
var azureRetryingLinks = map[string]bool{"Sender": true, "Receiver": true, "SessionReceiver": true}

// oras-go v2: an http.Client made by retry.NewClient, retry.DefaultClient, or one whose
// Transport is a retry.Transport retries a request up to 5 times (DefaultPolicy: 6 attempts)
// with jittered exponential backoff.
var orasTransport = &library{
	name:     "net/http over oras-go retry.Transport",
	paths:    []string{"net/http"},
	clients:  []entry{{recv: "Client", names: []string{"Do", "Get", "Head", "Post", "PostForm"}, config: []int{-1}, ctx: -1}},
	defaults: summary{*bound(6), WaitJittered, DeadlineUnknown},
	when: func(c *site, e *entry) bool {
		if hasCall(c.calls(c.Recv), orasRetryPath, "NewClient") {
			return true
		}
		for _, v := range c.origins(c.Recv) {
			if loadsGlobal(v, orasRetryPath, "DefaultClient") {
				return true
			}
			if t, ok := fieldStores(v)["Transport"]; ok && (isAllocOf(t, orasRetryPath, "Transport") || hasCall(c.calls(t), orasRetryPath, "NewTransport")) {
				return true
			}
		}
		return false
	},
}

const orasRetryPath = "oras.land/oras-go/v2/registry/remote/retry"

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

// HashiCorp's Terraform plugin SDK (frameworks.md §1): Retry(timeout, f) and RetryContext(ctx,
// timeout, f) call f until it returns nil or NonRetryableError, or the timeout passes: no cap
// on attempts, waits of 500 ms doubling to 10 s without jitter. StateChangeConf's WaitForState
// polls its Refresh field the same way (PollInterval makes the wait fixed) until the timeout.
// v2's helper/resource API is aliases of helper/retry since v2.26.0; v1 has no context.
var terraformSDK = &library{
	name: "hashicorp/terraform-plugin-sdk v1, v2",
	paths: []string{
		"github.com/hashicorp/terraform-plugin-sdk/helper/resource",
		"github.com/hashicorp/terraform-plugin-sdk/v2/helper/resource",
		"github.com/hashicorp/terraform-plugin-sdk/v2/helper/retry",
	},
	helpers: []entry{
		{names: []string{"Retry"}, arg: 1, ctx: -1},
		{names: []string{"RetryContext"}, arg: 2, ctx: 0},
		// WaitForState polls Refresh until the state is a target one; an error from Refresh
		// ends it.
		{recv: "StateChangeConf", names: []string{"WaitForState"}, arg: -1, field: "Refresh", config: []int{-1}, ctx: -1, poll: true},
		{recv: "StateChangeConf", names: []string{"WaitForStateContext"}, arg: -1, field: "Refresh", config: []int{-1}, ctx: 0, poll: true},
	},
	defaults:   summary{Bound{Kind: BoundNone}, WaitBackoff, DeadlineElapsed},
	fixedWaits: true, // 500 ms doubling to 10 s, or PollInterval: no jitter to turn on
	settings: map[string]setting{
		"StateChangeConf.PollInterval": {layer: 1, wait: WaitFixed, zeroWait: keepWait},
	},
	verdicts: []string{"RetryError"},
}

// settingAt returns the last setting of s that set its wait, or nil (the library's default).
func (s *Scope) settingAt(kind func(Setting) bool) *Setting {
	for i := len(s.Settings) - 1; i >= 0; i-- {
		if kind(s.Settings[i]) {
			return &s.Settings[i]
		}
	}
	return nil
}

// MadeAt returns where the client of a Client scope is made in view (its constructor, the
// first of its settings in view), or token.NoPos: the calls of one client made there share
// its retry policy, one cause.
func (s *Scope) MadeAt() token.Pos {
	if s.Kind != Client {
		return token.NoPos
	}
	for _, set := range s.Settings {
		if set.Pos.IsValid() {
			return set.Pos
		}
	}
	return token.NoPos
}

// WaitSetting returns the setting that decided the scope's wait, or nil when the library's
// default did.
func (s *Scope) WaitSetting() *Setting {
	return s.settingAt(func(x Setting) bool { return x.Wait != WaitUnknown })
}

// AttemptsSetting returns the setting that decided the scope's attempts, or nil.
func (s *Scope) AttemptsSetting() *Setting {
	return s.settingAt(func(x Setting) bool { return x.Attempts.Kind != BoundUnknown })
}

// buildkite/roko: NewRetrier(opts...).Do(cb), .DoWithContext(ctx, cb), and DoFunc, DoFunc2,
// DoFunc3(ctx, r, cb). A retrier must be given WithMaxAttempts(n) (n attempts) or TryForever
// (NewRetrier panics otherwise) and a strategy: Constant(d) waits d, Exponential and
// ExponentialSubsecond grow; neither is randomised unless WithJitter or WithJitterRange is
// given. Do runs on context.Background. A callback's rt.SetNextInterval(d) sets the next wait
// (waitSetters); Constant(0) waits nothing by itself.
var buildkiteRoko = &library{
	capHint: "add roko.WithMaxAttempts(5)", deadlineHint: "use DoWithContext(%s, ...)",
	name:  "buildkite/roko",
	paths: []string{"github.com/buildkite/roko"},
	helpers: []entry{
		{recv: "Retrier", names: []string{"Do"}, arg: 0, config: []int{-1}, ctx: -1},
		{recv: "Retrier", names: []string{"DoWithContext"}, arg: 1, config: []int{-1}, ctx: 0},
		{names: []string{"DoFunc", "DoFunc2", "DoFunc3"}, arg: 2, config: []int{1}, ctx: 0},
	},
	defaults: summary{Bound{Kind: BoundUnknown}, WaitUnknown, DeadlineNone},
	settings: map[string]setting{
		"NewRetrier":           {layer: 0},
		"Constant":             {layer: 0, arg: 0, wait: WaitFixed, zeroWait: WaitNone},
		"Exponential":          {layer: 0, wait: WaitBackoff},
		"ExponentialSubsecond": {layer: 0, wait: WaitBackoff},
		"WithJitter":           {layer: 1, wait: WaitJittered},
		"WithJitterRange":      {layer: 1, wait: WaitJittered},
		"WithMaxAttempts":      {layer: 1, arg: 0, attempts: attemptsOf(0)},
		"TryForever":           {layer: 1, bound: unbounded},
	},
}

// matryer/try: Do(fn) calls fn(attempt) until it returns a nil error or retry false, at most
// MaxRetries times (a package variable, 10 unless the program sets it). It never waits itself:
// the callback sleeps as it likes before it says go on, which this table does not judge.
var matryerTry = &library{
	capHint: "return retry false once attempt passes a few", deadlineHint: "check %s.Err() in the callback",
	name:  "matryer/try",
	paths: []string{"github.com/matryer/try", "gopkg.in/matryer/try.v1"},
	helpers: []entry{
		{names: []string{"Do"}, arg: 0, ctx: -1},
	},
	defaults: summary{*bound(10), WaitUnknown, DeadlineNone},
	settings: map[string]setting{
		"MaxRetries": {layer: 1, attempts: attemptsOf(0)},
	},
}

// waitSetters are the methods a callback calls to set the wait before the next attempt,
// overriding the strategy's for that attempt, with the index of the argument that holds it.
var waitSetters = map[flow.FuncID]int{
	{Pkg: "github.com/buildkite/roko", Recv: "Retrier", Name: "SetNextInterval"}: 1,
}
