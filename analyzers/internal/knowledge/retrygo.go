package knowledge

// avast/retry-go v4 and v5. Do(fn, opts...), DoWithData(fn, opts...); v5: New(opts...).Do(fn).
// Defaults: 10 attempts, CombineDelay(BackOffDelay, RandomDelay) from 100 ms, no context.
// Attempts(0) and UntilSucceeded() retry until success.
var RetryGo = &Library{
	CapHint: "add retry.Attempts(4)", DeadlineHint: "add retry.Context(%s)",
	Name:  "avast/retry-go v4+",
	Paths: Versions("github.com/avast/retry-go", 4, 5),
	Helpers: []Entry{
		{Names: []string{"Do", "DoWithData"}, Arg: 0, Config: []int{1}, Ctx: -1},
		{Recv: "Retrier", Names: []string{"Do"}, Arg: 0, Config: []int{-1}, Ctx: -1},
		{Recv: "RetrierWithData", Names: []string{"Do"}, Arg: 0, Config: []int{-1}, Ctx: -1},
	},
	Defaults: Summary{*AtMost(10), WaitJittered, DeadlineNone},
	Settings: map[string]Option{
		"Attempts":       {Arg: 0, Attempts: AttemptsOf(0).ZeroMeans(Unbounded)},
		"UntilSucceeded": {Bound: Unbounded},
		"DelayType":      {Arg: 0, WaitBy: retryGoDelays, Jitter: retryGoJitter},
		"Context":        {Arg: 0, Deadline: DeadlineContext},
		"RetryIf":        {Arg: 0}, // which errors it retries (see Resends)
	},
}

var retryGoDelays = map[string]WaitKind{
	"RandomDelay": WaitJittered, "FullJitterBackoffDelay": WaitJittered,
	"BackOffDelay": WaitBackoff, "FixedDelay": WaitFixed,
}

// avast/retry-go v2 and v3: as v4, but Attempts(0) never calls the function, and the default
// delay was an unjittered BackOffDelay before v2.5, which the import path cannot tell apart.
var RetryGoV2 = &Library{
	CapHint: "add retry.Attempts(4)", DeadlineHint: "add retry.Context(%s)",
	Name:     "avast/retry-go v2, v3",
	Paths:    Versions("github.com/avast/retry-go", 1, 3),
	Helpers:  []Entry{{Names: []string{"Do"}, Arg: 0, Config: []int{1}, Ctx: -1}},
	Defaults: Summary{*AtMost(10), WaitUnknown, DeadlineNone},
	Settings: map[string]Option{
		"Attempts":  {Arg: 0, Attempts: AttemptsOf(0).ZeroMeans(Never)},
		"DelayType": {Arg: 0, WaitBy: retryGoDelays, Jitter: retryGoJitter},
		"Context":   {Arg: 0, Deadline: DeadlineContext},
		"RetryIf":   {Arg: 0},
	},
}

// retryGoJitter combines the program's delay type with the library's random one.
var retryGoJitter = &JitterFix{Kind: FixArg, Text: "{pkg}.CombineDelay({value}, {pkg}.RandomDelay)"}
