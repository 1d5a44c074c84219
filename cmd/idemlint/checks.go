package main

import (
	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/analyzers"
	"github.com/idemlint/idemlint/analyzers/directive"
)

// checks returns the analyzers that report: idemlint's checks, then the directive analyzer,
// which reports mistakes in //idemlint: directives under a rule of its own.
func checks() []*analysis.Analyzer {
	return analyzers.Reporting()
}

// all returns the analyzers that report, then the shared models.
func all() []*analysis.Analyzer {
	return append(checks(), analyzers.Models()...)
}

// chosen applies the -NAME flags as the go/analysis drivers do: if any is true, only those
// run; otherwise all but those set to false. The directive analyzer runs unless it is set to
// false, whichever checks are chosen: a directive's mistake concerns every check.
func chosen(as []*analysis.Analyzer, state func(*analysis.Analyzer) tristate) []*analysis.Analyzer {
	anyTrue := anyOn(as, state)
	var out []*analysis.Analyzer
	for _, a := range as {
		if s := state(a); s == on || s != off && (!anyTrue || a == directive.Analyzer) {
			out = append(out, a)
		}
	}
	return out
}

// anyOn reports whether a -NAME flag chose checks to run.
func anyOn(as []*analysis.Analyzer, state func(*analysis.Analyzer) tristate) bool {
	for _, a := range as {
		if state(a) == on {
			return true
		}
	}
	return false
}
