package knowledge

// sethvargo/go-retry: Do(ctx, b, f), DoValue(ctx, b, f), and Constant/Exponential/Fibonacci
// (ctx, d, f). Backoffs never stop and are not jittered unless wrapped; WithMaxRetries counts
// retries. WithFullJitter exists since v0.4.0.
var GoRetry = &Library{
	CapHint: "wrap the backoff in retry.WithMaxRetries(3, b)", DeadlineHint: "pass %s to retry.Do",
	Name:  "sethvargo/go-retry",
	Paths: []string{"github.com/sethvargo/go-retry"},
	Helpers: []Entry{
		{Names: []string{"Do", "DoValue"}, Arg: 2, Config: []int{1}, Ctx: 0},
		{Names: []string{"Exponential", "Fibonacci"}, Arg: 2, Ctx: 0, Over: &Summary{Bound{Kind: BoundNone}, WaitBackoff, DeadlineNone}},
		{Names: []string{"Constant"}, Arg: 2, Ctx: 0, Over: &Summary{Bound{Kind: BoundNone}, WaitFixed, DeadlineNone}},
	},
	Defaults: Summary{Bound{Kind: BoundNone}, WaitUnknown, DeadlineNone},
	Settings: map[string]Option{
		"NewExponential":    {Layer: 0, Wait: WaitBackoff, Jitter: goRetryJitter},
		"NewFibonacci":      {Layer: 0, Wait: WaitBackoff, Jitter: goRetryJitter},
		"NewConstant":       {Layer: 0, Wait: WaitFixed, Jitter: goRetryJitter},
		"WithJitter":        {Layer: 1, Arg: 0, Wait: WaitJittered, ZeroWait: KeepWait},
		"WithJitterPercent": {Layer: 1, Arg: 0, Wait: WaitJittered, ZeroWait: KeepWait},
		"WithFullJitter":    {Layer: 1, Wait: WaitJittered},
		"WithMaxRetries":    {Layer: 1, Arg: 0, Attempts: AttemptsOf(1)},
		"WithMaxDuration":   {Layer: 1, Arg: 0, Deadline: DeadlineElapsed, ZeroDeadline: KeepDeadline},
	},
}

// goRetryJitter wraps the strategy in WithFullJitter (since v0.4.0).
var goRetryJitter = &JitterFix{Kind: FixWrap, Text: "{pkg}.WithFullJitter({value})", Needs: "WithFullJitter"}
