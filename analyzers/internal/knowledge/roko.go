package knowledge

import "github.com/idemlint/idemlint/analyzers/internal/flow"

// buildkite/roko: NewRetrier(opts...).Do(cb), .DoWithContext(ctx, cb), and DoFunc, DoFunc2,
// DoFunc3(ctx, r, cb). A retrier must be given WithMaxAttempts(n) (n attempts) or TryForever
// (NewRetrier panics otherwise) and a strategy: Constant(d) waits d, Exponential and
// ExponentialSubsecond grow; neither is randomised unless WithJitter or WithJitterRange is
// given. Do runs on context.Background. A callback's rt.SetNextInterval(d) sets the next wait
// (WaitSetters); Constant(0) waits nothing by itself.
var Roko = &Library{
	CapHint: "add roko.WithMaxAttempts(5)", DeadlineHint: "use DoWithContext(%s, ...)",
	Name:  "buildkite/roko",
	Paths: []string{"github.com/buildkite/roko"},
	Helpers: []Entry{
		{Recv: "Retrier", Names: []string{"Do"}, Arg: 0, Config: []int{-1}, Ctx: -1},
		{Recv: "Retrier", Names: []string{"DoWithContext"}, Arg: 1, Config: []int{-1}, Ctx: 0},
		{Names: []string{"DoFunc", "DoFunc2", "DoFunc3"}, Arg: 2, Config: []int{1}, Ctx: 0},
	},
	Defaults: Summary{Bound{Kind: BoundUnknown}, WaitUnknown, DeadlineNone},
	Settings: map[string]Option{
		"NewRetrier":           {Layer: 0},
		"Constant":             {Layer: 0, Arg: 0, Wait: WaitFixed, ZeroWait: WaitNone, Jitter: rokoJitter},
		"Exponential":          {Layer: 0, Wait: WaitBackoff, Jitter: rokoJitter},
		"ExponentialSubsecond": {Layer: 0, Wait: WaitBackoff, Jitter: rokoJitter},
		"WithJitter":           {Layer: 1, Wait: WaitJittered},
		"WithJitterRange":      {Layer: 1, Wait: WaitJittered},
		"WithMaxAttempts":      {Layer: 1, Arg: 0, Attempts: AttemptsOf(0)},
		"TryForever":           {Layer: 1, Bound: Unbounded},
	},
}

// WaitSetters are the methods a callback calls to set the wait before the next attempt,
// overriding the strategy's for that attempt, with the index of the argument that holds it.
var WaitSetters = map[flow.FuncID]int{
	{Pkg: "github.com/buildkite/roko", Recv: "Retrier", Name: "SetNextInterval"}: 1,
}

// rokoJitter adds WithJitter after the WithStrategy option that holds the strategy.
var rokoJitter = &JitterFix{Kind: FixAfter, Text: "{pkg}.WithJitter()", In: "WithStrategy"}
