package knowledge

// hibiken/asynq (§9): a handler returning an error runs again, 26 attempts by default, with
// a jittered delay (n⁴ + 15 + rand(30)·(n+1) s). The task ID is the same on every attempt.
var Asynq = &Framework{
	Name: "asynq", Noun: "asynq task handler", Kind: Handlers,
	Library: &Library{
		Name:     "hibiken/asynq",
		Paths:    []string{"github.com/hibiken/asynq"},
		Defaults: Summary{Attempts: *AtMost(26), Wait: WaitJittered, Deadline: DeadlineUnknown},
	},
	Shapes: []Shape{{Params: []string{"context.Context", "*github.com/hibiken/asynq.Task"}, Results: []string{"error"}}},
	Identities: []Identity{{
		What: "the task ID", Of: "*github.com/hibiken/asynq.Task", Expr: "$v.ResultWriter().TaskID()",
	}},
}
