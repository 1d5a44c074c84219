// Package analyzers lists idemlint's analyzers: the one place the drivers (cmd/idemlint, the
// golangci-lint plugin) learn what there is.
package analyzers

import (
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/analyzers/internal/docs"
	"github.com/idemlint/idemlint/analyzers/keyinloop"
	"github.com/idemlint/idemlint/analyzers/keys"
	"github.com/idemlint/idemlint/analyzers/nestedretry"
	"github.com/idemlint/idemlint/analyzers/nojitter"
	"github.com/idemlint/idemlint/analyzers/notimeout"
	"github.com/idemlint/idemlint/analyzers/remote"
	"github.com/idemlint/idemlint/analyzers/retryscope"
	"github.com/idemlint/idemlint/analyzers/unkeyedretry"
)

// Checks returns the analyzers that report, in a stable order.
func Checks() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		keyinloop.Analyzer,
		nojitter.Analyzer,
		notimeout.Analyzer,
		nestedretry.Analyzer,
		unkeyedretry.Analyzer,
	}
}

// Models returns the shared models the checks require. They report nothing, but their flags
// (extra helpers, generators, key names) configure every check.
func Models() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		retryscope.Analyzer,
		keys.Analyzer,
		remote.Analyzer,
	}
}

// All returns the checks followed by the models.
func All() []*analysis.Analyzer {
	return append(Checks(), Models()...)
}

// DocsURL is where idemlint's documentation is published; each analyzer's URL is its page there.
const DocsURL = docs.BaseURL + "docs/"

// A Check is one of idemlint's checks as help lists it: built, or planned and not built yet.
type Check struct {
	Name     string
	Summary  string             // the first line of its documentation
	Analyzer *analysis.Analyzer // nil while planned
}

// Roster returns every check, built or planned, in the order help lists them. A check is
// built as soon as Checks returns it.
func Roster() []Check {
	var out []Check
	for _, c := range docs.Checks() {
		rc := Check{Name: c.Name, Summary: c.Summary}
		for _, a := range Checks() {
			if a.Name == c.Name {
				rc.Analyzer = a
				rc.Summary, _, _ = strings.Cut(a.Doc, "\n")
			}
		}
		out = append(out, rc)
	}
	return out
}
