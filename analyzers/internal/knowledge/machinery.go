package knowledge

// RichardKnop/machinery v1 and v2 (§10): a task runs again when its signature's RetryCount
// (set by the sender; 0 by default) allows, with a Fibonacci backoff, or without a cap when
// it returns ErrRetryTaskLater. The signature's UUID is stable; it comes from the context,
// maybe nil: no expression.
var Machinery = &Framework{
	Name: "machinery", Noun: "machinery task", Kind: Handlers,
	Library: &Library{
		Name:     "RichardKnop/machinery",
		Paths:    []string{"github.com/RichardKnop/machinery/v1", "github.com/RichardKnop/machinery/v2"},
		Defaults: Summary{Attempts: Bound{Kind: BoundUnknown}, Wait: WaitBackoff, Deadline: DeadlineUnknown},
	},
	Registers: []Entry{
		{Recv: "Server", Names: []string{"RegisterTask"}, Arg: 1},
		{Recv: "Server", Names: []string{"RegisterTasks"}, Arg: 0},
	},
	Identities: []Identity{{What: "the task signature's UUID (tasks.SignatureFromContext(ctx))", Of: "context.Context"}},
}
