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

// Error libraries whose Is and As are the standard library's (errors.Is, errors.As), and
// functions that return the error they are handed, or the one it wraps at its root: a test of
// errors.Cause(err).(T) or pkgerrors.As(err, &t) singles out an error of the call that made err.
var (
	errorsTests = map[string]bool{
		"errors":                        true,
		"github.com/pkg/errors":         true,
		"github.com/pingcap/errors":     true,
		"github.com/cockroachdb/errors": true,
		"golang.org/x/xerrors":          true,
	}
	unwrappers = map[flow.FuncID]bool{
		{Pkg: "errors", Name: "Unwrap"}:                           true,
		{Pkg: "github.com/pkg/errors", Name: "Cause"}:             true,
		{Pkg: "github.com/pkg/errors", Name: "Unwrap"}:            true,
		{Pkg: "github.com/pingcap/errors", Name: "Cause"}:         true,
		{Pkg: "github.com/cockroachdb/errors", Name: "Cause"}:     true,
		{Pkg: "github.com/cockroachdb/errors", Name: "UnwrapAll"}: true,
		{Pkg: "golang.org/x/xerrors", Name: "Unwrap"}:             true,
	}
)

// ErrorsTest reports whether id is errors.Is or errors.As, of the standard library or of a
// library whose Is and As are the same (see errorsTests).
func ErrorsTest(id flow.FuncID) bool {
	return id.Recv == "" && errorsTests[id.Pkg] && (id.Name == "Is" || id.Name == "As")
}

// Unwraps reports whether id returns the error it is handed or the one at its root (see
// unwrappers).
func Unwraps(id flow.FuncID) bool { return unwrappers[id] }
