package knowledge

// failsafe-go: Run(fn, policies...), Get(fn, policies...) (up to v0.8), and the Executor's
// methods (With(policies...).Run(fn)); they retry only with a retry policy among the
// policies. A retry policy's defaults: 2 retries (3 attempts), no delay. WithMaxRetries(-1)
// and WithMaxAttempts(0 or -1) retry without end.
var FailsafeGo = &Library{
	CapHint: "set WithMaxRetries(3) on the retry policy", DeadlineHint: "run it with .WithContext(%s)",
	Name:  "failsafe-go",
	Paths: []string{"github.com/failsafe-go/failsafe-go", "github.com/failsafe-go/failsafe-go/retrypolicy"},
	Helpers: []Entry{
		{Names: []string{"Run", "Get", "RunWithExecution", "GetWithExecution"}, Arg: 0, Config: []int{1}, Ctx: -1},
		{Recv: "Executor", Names: []string{"Run", "Get", "RunWithExecution", "GetWithExecution", "RunAsync", "GetAsync", "RunAsyncWithExecution", "GetAsyncWithExecution"}, Arg: 0, Config: []int{-1}, Ctx: -1},
	},
	Defaults: Summary{*AtMost(3), WaitNone, DeadlineNone},
	Settings: map[string]Option{
		"WithMaxRetries":    {Layer: 1, Arg: 0, Attempts: AttemptsOf(1).NegativeMeans(Unbounded)},
		"WithMaxAttempts":   {Layer: 1, Arg: 0, Attempts: AttemptsOf(0).ZeroMeans(Unbounded).NegativeMeans(Unbounded)},
		"WithDelay":         {Layer: 1, Wait: WaitFixed},
		"WithDelayFunc":     {Layer: 1, Arg: 0, WaitBy: map[string]WaitKind{}},
		"WithBackoff":       {Layer: 1, Wait: WaitBackoff},
		"WithBackoffFactor": {Layer: 1, Wait: WaitBackoff},
		"WithRandomDelay":   {Layer: 1, Wait: WaitJittered},
		"WithJitter":        {Layer: 1, Wait: WaitJittered},
		"WithJitterFactor":  {Layer: 1, Wait: WaitJittered},
		"WithMaxDuration":   {Layer: 1, Deadline: DeadlineElapsed},
		"WithContext":       {Layer: 1, Arg: 0, Deadline: DeadlineContext},
	},
}
