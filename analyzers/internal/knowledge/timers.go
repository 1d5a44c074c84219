package knowledge

import (
	"go/types"
	"strings"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

// Durable timers of workflow frameworks: a workflow waits by scheduling a timer that the
// framework records and fires, not by sleeping, so the model cannot see the wait in the code.
// The value is the index of the duration argument.
var timers = map[flow.FuncID]int{
	{Pkg: "go.temporal.io/sdk/workflow", Name: "Sleep"}:                         1,
	{Pkg: "go.temporal.io/sdk/workflow", Name: "NewTimer"}:                      1,
	{Pkg: "github.com/cschleiden/go-workflows/workflow", Name: "Sleep"}:         1,
	{Pkg: "github.com/cschleiden/go-workflows/workflow", Name: "ScheduleTimer"}: 1,
}

// TimerDuration returns the index of the duration argument of fn when fn waits on a
// framework's durable timer (workflow.Sleep(ctx, d), workflow.ScheduleTimer(ctx, d)), or -1.
func TimerDuration(fn *types.Func) int {
	if i, ok := timers[flow.ID(fn)]; ok {
		return i
	}
	return -1
}

// Functions that read a number, a duration or an instant from text: a delay computed from
// what they return is the data's (a server's Retry-After, a "retry:" field), not the program's.
func ParsesText(fn *types.Func) bool {
	id := flow.ID(fn)
	switch {
	case id.Pkg == "strconv" && id.Recv == "":
		return id.Name == "Atoi" || strings.HasPrefix(id.Name, "Parse")
	case id.Pkg == "time" && id.Recv == "":
		return id.Name == "ParseDuration" || id.Name == "Parse" || id.Name == "ParseInLocation"
	}
	return false
}

// IsStdin reports whether g is os.Stdin.
func IsStdin(g *types.Var) bool {
	return g != nil && g.Pkg() != nil && g.Pkg().Path() == "os" && g.Name() == "Stdin"
}
