package knowledge

// This project's runtime: retry.Do(ctx, policy, fn), retry.DoValue(ctx, policy, fn).
// Defaults: 4 attempts, full jitter, the context's deadline and the policy's Timeout.
var IdemlintRetry = &Library{
	CapHint: "set Policy.MaxAttempts", DeadlineHint: "pass %s to retry.Do",
	Name:     "idemlint runtime/retry",
	Paths:    []string{"github.com/idemlint/idemlint/runtime/retry"},
	Helpers:  []Entry{{Names: []string{"Do", "DoValue"}, Arg: 2, Config: []int{1}, Ctx: 0}},
	Defaults: Summary{*AtMost(4), WaitJittered, DeadlineNone},
	Settings: map[string]Option{
		"Policy.MaxAttempts": {Layer: 1, Attempts: AttemptsOf(0).ZeroMeans(AtMost(4)).NegativeMeans(AtMost(4))},
		"Policy.Timeout":     {Layer: 1, Deadline: DeadlineElapsed, ZeroDeadline: KeepDeadline},
		"Policy.Classify":    {Layer: 1}, // which errors it retries (see Resends)
		"Policy.Idempotent":  {Layer: 1},
	},
}

const RetryHTTPPath = "github.com/idemlint/idemlint/runtime/retry/retryhttp"

// An *http.Client whose Transport is this project's retryhttp.Transport: its Policy's
// attempts (4 by default), full jitter, the request's context.
var IdemlintTransport = &Library{
	Name:     "net/http over idemlint retryhttp",
	Paths:    []string{"net/http"},
	Clients:  []Entry{{Recv: "Client", Names: []string{"Do", "Get", "Head", "Post", "PostForm"}, Config: []int{-1}, Ctx: -1}},
	Defaults: Summary{*AtMost(4), WaitJittered, DeadlineContext},
}
