package knowledge

// Kubernetes: client-go retry.RetryOnConflict(backoff, fn), retry.OnError(backoff, retriable,
// fn); apimachinery wait.ExponentialBackoff(backoff, cond), ExponentialBackoffWithContext(ctx,
// backoff, cond), and the Poll family, which polls a condition at a fixed interval. A Backoff's
// Steps counts attempts (0: the function is never called); Jitter > 0 randomises; Factor > 1
// grows the delay. DefaultRetry: 5 attempts, DefaultBackoff: 4, both jittered.
var KubernetesWait = &Library{
	CapHint: "set the Backoff's Steps", DeadlineHint: "use wait.ExponentialBackoffWithContext(%s, ...)",
	Name:  "k8s.io client-go retry, apimachinery wait",
	Paths: []string{"k8s.io/client-go/util/retry", "k8s.io/apimachinery/pkg/util/wait"},
	Helpers: []Entry{
		{Names: []string{"RetryOnConflict"}, Arg: 1, Config: []int{0}, Ctx: -1},
		{Names: []string{"OnError"}, Arg: 2, Config: []int{0}, Ctx: -1},
		{Names: []string{"ExponentialBackoff"}, Arg: 1, Config: []int{0}, Ctx: -1},
		{Names: []string{"ExponentialBackoffWithContext"}, Arg: 2, Config: []int{1}, Ctx: 0},
		{Names: []string{"PollUntilContextTimeout"}, Arg: 4, Ctx: 0, Over: &Summary{Bound{Kind: BoundNone}, WaitFixed, DeadlineElapsed}, Poll: true},
		{Names: []string{"PollUntilContextCancel"}, Arg: 3, Ctx: 0, Over: &Summary{Bound{Kind: BoundNone}, WaitFixed, DeadlineNone}, Poll: true},
		{Names: []string{"Poll", "PollImmediate"}, Arg: 2, Ctx: -1, Over: &Summary{Bound{Kind: BoundNone}, WaitFixed, DeadlineElapsed}, Poll: true},
		{Names: []string{"PollWithContext", "PollImmediateWithContext"}, Arg: 3, Ctx: 0, Over: &Summary{Bound{Kind: BoundNone}, WaitFixed, DeadlineElapsed}, Poll: true},
		{Names: []string{"PollInfinite", "PollImmediateInfinite"}, Arg: 1, Ctx: -1, Over: &Summary{Bound{Kind: BoundNone}, WaitFixed, DeadlineNone}, Poll: true},
		{Names: []string{"PollInfiniteWithContext", "PollImmediateInfiniteWithContext"}, Arg: 2, Ctx: 0, Over: &Summary{Bound{Kind: BoundNone}, WaitFixed, DeadlineNone}, Poll: true},
	},
	Defaults: Summary{Bound{Kind: BoundUnknown}, WaitUnknown, DeadlineNone},
	Settings: map[string]Option{
		"DefaultRetry":   {Layer: 0, Bound: AtMost(5), Wait: WaitJittered, Brief: true}, // 4 waits of about 10 ms
		"DefaultBackoff": {Layer: 0, Bound: AtMost(4), Wait: WaitJittered, Brief: true}, // 10, 50, 250 ms
		"Backoff{}":      {Layer: 0, Bound: Never, Wait: WaitFixed, Jitter: &JitterFix{Kind: FixField, Text: "Jitter: 1.0"}},
		"Backoff.Steps":  {Layer: 1, Attempts: AttemptsOf(0).ZeroMeans(Never).NegativeMeans(Never)},
		"Backoff.Factor": {Layer: 1}, // see k8sFactor
		"Backoff.Jitter": {Layer: 1, Wait: WaitJittered, ZeroWait: KeepWait, Jitter: &JitterFix{Kind: FixValue, Text: "1.0"}},
	},
}
