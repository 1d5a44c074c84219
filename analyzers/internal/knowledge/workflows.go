package knowledge

import "github.com/idemlint/idemlint/analyzers/internal/flow"

const (
	temporalInternal = "go.temporal.io/sdk/internal"
	cadenceInternal  = "go.uber.org/cadence/internal"
)

// Temporal (§2): activities retry by default, without a cap on attempts, until
// ScheduleToCloseTimeout (unlimited by default), with a backoff of 1 s doubling to 100 s. A
// RetryPolicy's MaximumAttempts counts attempts; 0 is unlimited and 1 disables retries. The
// options are set by the workflow that runs the activity: in view only where this package
// runs it with workflow.ExecuteActivity.
var Temporal = &Framework{
	Name: "Temporal", Noun: "activity", Kind: Activities,
	Library: &Library{
		Name:     "go.temporal.io/sdk",
		Paths:    []string{"go.temporal.io/sdk/worker", "go.temporal.io/sdk/workflow", "go.temporal.io/sdk/activity", "go.temporal.io/sdk/temporal", temporalInternal},
		Defaults: Summary{Attempts: Bound{Kind: BoundNone}, Wait: WaitBackoff, Deadline: DeadlineUnknown},
		Settings: activitySettings(AttemptsOf(0).ZeroMeans(Unbounded).NegativeMeans(Unbounded)),
	},
	Registers: []Entry{{Recv: "ActivityRegistry", Names: []string{"RegisterActivity", "RegisterActivityWithOptions"}, Arg: 0}},
	Runs: []Entry{{Names: []string{"ExecuteActivity", "ExecuteLocalActivity"}, Arg: 1, Config: []int{0}, Ctx: -1, Path: "go.temporal.io/sdk/workflow",
		Over: &Summary{Attempts: Bound{Kind: BoundNone}, Wait: WaitBackoff, Deadline: DeadlineNone}}},
	Marks:      activityMarks("go.temporal.io/sdk/activity", "GetMetricsHandler", "GetClient"),
	Identities: activityIdentity("go.temporal.io/sdk/activity"),
}

// Cadence (§3): activities do not retry without a RetryPolicy in their options; with one,
// MaximumAttempts counts attempts (0: until ExpirationInterval). Registered globally
// (activity.Register) or per worker. With the options out of view, the attempts are unknown.
var Cadence = &Framework{
	Name: "Cadence", Noun: "activity", Kind: Activities,
	Library: &Library{
		Name:     "go.uber.org/cadence",
		Paths:    []string{"go.uber.org/cadence/worker", "go.uber.org/cadence/workflow", "go.uber.org/cadence/activity", "go.uber.org/cadence", cadenceInternal},
		Defaults: Summary{Attempts: Bound{Kind: BoundUnknown}, Wait: WaitUnknown, Deadline: DeadlineUnknown},
		Settings: func() map[string]Option {
			m := activitySettings(AttemptsOf(0).ZeroMeans(Unbounded))
			m["ActivityOptions.RetryPolicy"] = Option{Layer: 0, Bound: Unbounded, Wait: WaitBackoff}
			m["LocalActivityOptions.RetryPolicy"] = m["ActivityOptions.RetryPolicy"]
			m["RetryPolicy.ExpirationInterval"] = Option{Layer: 1, Deadline: DeadlineElapsed, ZeroDeadline: KeepDeadline}
			return m
		}(),
	},
	Registers: []Entry{
		{Recv: "ActivityRegistry", Names: []string{"RegisterActivity", "RegisterActivityWithOptions"}, Arg: 0},
		{Names: []string{"Register", "RegisterWithOptions"}, Arg: 0, Path: "go.uber.org/cadence/activity"},
	},
	Runs: []Entry{{Names: []string{"ExecuteActivity", "ExecuteLocalActivity"}, Arg: 1, Config: []int{0}, Ctx: -1, Path: "go.uber.org/cadence/workflow",
		Over: &Summary{Attempts: *Once, Wait: WaitNone, Deadline: DeadlineNone}}},
	Marks:      activityMarks("go.uber.org/cadence/activity", "GetMetricsScope"),
	Identities: activityIdentity("go.uber.org/cadence/activity"),
}

// activitySettings are the activity options of Temporal and Cadence (same names): the
// RetryPolicy's attempts and the ScheduleToCloseTimeout, which bounds all attempts.
func activitySettings(attempts Count) map[string]Option {
	deadline := Option{Layer: 1, Deadline: DeadlineElapsed, ZeroDeadline: KeepDeadline}
	return map[string]Option{
		"RetryPolicy.MaximumAttempts":                 {Layer: 1, Attempts: attempts},
		"ActivityOptions.ScheduleToCloseTimeout":      deadline,
		"LocalActivityOptions.ScheduleToCloseTimeout": deadline,
	}
}

// activityMarks: the activity package's functions that need an activity's context.
func activityMarks(path string, more ...string) []flow.FuncID {
	var out []flow.FuncID
	for _, n := range append([]string{"GetInfo", "GetLogger", "RecordHeartbeat", "HasHeartbeatDetails", "GetHeartbeatDetails", "GetWorkerStopChannel"}, more...) {
		out = append(out, flow.FuncID{Pkg: path, Name: n})
	}
	return out
}

// activityIdentity: the workflow ID and the activity ID, the same on every attempt of one
// activity (the attempt number and task token change).
func activityIdentity(path string) []Identity {
	return []Identity{{
		What:    "the workflow and activity IDs (activity.GetInfo(ctx))",
		Of:      "context.Context",
		Expr:    `{activity}.GetInfo($v).WorkflowExecution.ID + "/" + {activity}.GetInfo($v).ActivityID`,
		Imports: []string{path},
	}}
}
