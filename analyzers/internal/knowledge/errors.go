package knowledge

import (
	"go/types"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

// Errors that report progress, not failure: the call did part of its work, handed it back, and
// is called again to go on (bufio.Reader.ReadSlice fills its buffer before it finds the
// delimiter). A loop that goes round on one reads on; it does not try the work again.
var progress = map[flow.FuncID]bool{
	{Pkg: "bufio", Name: "ErrBufferFull"}: true,
}

// Progress reports whether v, a package-level error variable, reports progress (see progress).
func Progress(v *types.Var) bool {
	return v != nil && v.Pkg() != nil && progress[flow.FuncID{Pkg: v.Pkg().Path(), Name: v.Name()}]
}

// Calls that run until their context is done and then return nil: done is their success, not a
// failure (Pub/Sub's Receive pulls messages until it is cancelled). A loop that goes round on
// their failure leaves when the context ends.
var endsWithContext = map[flow.FuncID]bool{
	{Pkg: "cloud.google.com/go/pubsub", Recv: "Subscription", Name: "Receive"}:  true,
	{Pkg: "cloud.google.com/go/pubsub/v2", Recv: "Subscriber", Name: "Receive"}: true,
}

// EndsWithContext reports whether fn returns nil once its context is done (see endsWithContext).
func EndsWithContext(fn *types.Func) bool {
	return fn != nil && endsWithContext[flow.ID(fn)]
}
