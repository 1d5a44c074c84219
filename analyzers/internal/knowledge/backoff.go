package knowledge

// cenkalti/backoff up to v4: Retry(op, b) and friends, with a BackOff value that says
// everything. NewExponentialBackOff: jitter 0.5, no cap on attempts, 15 minutes of elapsed
// time; a literal has neither jitter nor elapsed limit unless its fields say so.
var BackoffV4 = &Library{
	CapHint: "wrap the BackOff in backoff.WithMaxRetries(b, 3)", DeadlineHint: "wrap the BackOff in backoff.WithContext(b, %s)",
	Name:  "cenkalti/backoff v1-v4",
	Paths: Versions("github.com/cenkalti/backoff", 1, 3, 4),
	Helpers: []Entry{{
		Names: []string{"Retry", "RetryNotify", "RetryNotifyWithTimer", "RetryWithData", "RetryNotifyWithData", "RetryNotifyWithTimerAndData"},
		Arg:   0, Config: []int{1}, Ctx: -1,
	}},
	Defaults: Summary{Bound{Kind: BoundUnknown}, WaitUnknown, DeadlineNone},
	Settings: map[string]Option{
		"NewExponentialBackOff":                  {Layer: 0, Bound: Unbounded, Wait: WaitJittered, Deadline: DeadlineElapsed},
		"ExponentialBackOff{}":                   {Layer: 0, Bound: Unbounded, Wait: WaitBackoff, Deadline: DeadlineNone},
		"ExponentialBackOff.RandomizationFactor": {Layer: 1, Wait: WaitJittered, ZeroWait: WaitBackoff, Jitter: &JitterFix{Kind: FixValue, Text: "{pkg}.DefaultRandomizationFactor"}},
		"ExponentialBackOff.MaxElapsedTime":      {Layer: 1, Deadline: DeadlineElapsed, ZeroDeadline: DeadlineNone},
		"WithRandomizationFactor":                {Layer: 1, Arg: 0, Wait: WaitJittered, ZeroWait: WaitBackoff, Jitter: &JitterFix{Kind: FixArg, Text: "{pkg}.DefaultRandomizationFactor"}},
		"WithMaxElapsedTime":                     {Layer: 1, Arg: 0, Deadline: DeadlineElapsed, ZeroDeadline: DeadlineNone},
		"NewConstantBackOff":                     {Layer: 0, Bound: Unbounded, Wait: WaitFixed},
		"ConstantBackOff{}":                      {Layer: 0, Bound: Unbounded, Wait: WaitFixed},
		"ZeroBackOff{}":                          {Layer: 0, Bound: Unbounded, Wait: WaitNone},
		"StopBackOff{}":                          {Layer: 0, Bound: Once, Wait: WaitNone},
		"WithMaxRetries":                         {Layer: 1, Arg: 1, Attempts: AttemptsOf(1)},
		"WithContext":                            {Layer: 1, Arg: 1, Deadline: DeadlineContext},
	},
}

// cenkalti/backoff v5: Retry[T](ctx, op, opts...). Defaults: NewExponentialBackOff (jittered),
// no cap on tries, 15 minutes of elapsed time. WithMaxTries counts attempts, 0 is no cap.
var BackoffV5 = &Library{
	CapHint: "add backoff.WithMaxTries(4)", DeadlineHint: "pass %s to backoff.Retry",
	Name:     "cenkalti/backoff v5",
	Paths:    Versions("github.com/cenkalti/backoff", 5),
	Helpers:  []Entry{{Names: []string{"Retry"}, Arg: 1, Config: []int{2}, Ctx: 0}},
	Defaults: Summary{Bound{Kind: BoundNone}, WaitJittered, DeadlineElapsed},
	Settings: map[string]Option{
		"NewExponentialBackOff":                  {Layer: 0, Wait: WaitJittered},
		"ExponentialBackOff{}":                   {Layer: 0, Wait: WaitBackoff},
		"ExponentialBackOff.RandomizationFactor": {Layer: 1, Wait: WaitJittered, ZeroWait: WaitBackoff, Jitter: &JitterFix{Kind: FixValue, Text: "{pkg}.DefaultRandomizationFactor"}},
		"NewConstantBackOff":                     {Layer: 0, Wait: WaitFixed},
		"ConstantBackOff{}":                      {Layer: 0, Wait: WaitFixed},
		"ZeroBackOff{}":                          {Layer: 0, Wait: WaitNone},
		"StopBackOff{}":                          {Layer: 0, Bound: Once, Wait: WaitNone},
		"WithMaxTries":                           {Layer: 1, Arg: 0, Attempts: AttemptsOf(0).ZeroMeans(Unbounded)},
		"WithMaxElapsedTime":                     {Layer: 1, Arg: 0, Deadline: DeadlineElapsed, ZeroDeadline: DeadlineNone},
	},
}
