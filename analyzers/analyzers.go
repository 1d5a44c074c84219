// Package analyzers lists idemlint's analyzers: the one place the drivers (cmd/idemlint, the
// golangci-lint plugin) learn what there is.
package analyzers

import (
	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/analyzers/depmap"
	"github.com/idemlint/idemlint/analyzers/directive"
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

// Reporting returns the analyzers that report: the checks, then the directive analyzer, which
// reports mistakes in //idemlint: directives under a rule of its own, whichever checks run.
func Reporting() []*analysis.Analyzer {
	return append(Checks(), directive.Analyzer)
}

// Models returns the shared models the checks require, and the map of dependencies built on
// them. They report nothing unless asked (-NAME.report), but their flags (extra helpers,
// generators, key names) configure every check.
func Models() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		retryscope.Analyzer,
		keys.Analyzer,
		remote.Analyzer,
		depmap.Analyzer,
	}
}

// All returns the checks followed by the models.
func All() []*analysis.Analyzer {
	return append(Checks(), Models()...)
}

// DocsURL is where idemlint's documentation is published; each analyzer's URL is its page there.
const DocsURL = docs.BaseURL + "docs/"
