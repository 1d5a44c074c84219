package knowledge

// gax-go: Invoke(ctx, call, opts...) retries per its CallOptions (full jitter, no cap on
// attempts, until the context ends); with no options it calls once.
var Gax = &Library{
	CapHint: "give the context a deadline, or add gax.WithTimeout", DeadlineHint: "pass %s to gax.Invoke",
	Name:     "googleapis/gax-go",
	Paths:    Versions("github.com/googleapis/gax-go", 1, 2),
	Helpers:  []Entry{{Names: []string{"Invoke"}, Arg: 1, Config: []int{2}, Ctx: 0}},
	Defaults: Summary{Bound{Kind: BoundNone}, WaitJittered, DeadlineNone},
	Settings: map[string]Option{"WithTimeout": {Layer: 1, Deadline: DeadlineElapsed}},
}
