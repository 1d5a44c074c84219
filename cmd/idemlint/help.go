package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/analyzers"
	"github.com/idemlint/idemlint/analyzers/directive"
)

// usage prints idemlint's own usage: its checks, output formats, configuration,
// suppression and exit codes.
func usage(w io.Writer) {
	fmt.Fprint(w, `idemlint finds retry and idempotency mistakes in Go code.

Usage:
  idemlint [flags] packages            report findings (for example: idemlint ./...)
  idemlint -fix [-diff] packages       apply the suggested fixes (or print them as a patch)
  idemlint map [-format=html|json] packages
                                       a page of every outbound dependency, its retry
                                       layers and worst case (idemlint help map)
  idemlint help [check]                this text, or a check's documentation and flags
  idemlint -version                    the version, and the commit and date of a build from a checkout
  go vet -vettool=$(command -v idemlint) [flags] packages
  go fix -fixtool=$(command -v idemlint) packages
                                       (applies fixes silently, and says nothing of the
                                       findings it leaves: idemlint -fix says both)

Checks:
`)
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	for _, a := range analyzers.Checks() {
		summary, _, _ := strings.Cut(a.Doc, "\n")
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", a.Name, "check", summary)
	}
	summary, _, _ := strings.Cut(directive.Analyzer.Doc, "\n")
	fmt.Fprintf(tw, "  %s\t%s\t%s\n", directive.Analyzer.Name, "rule", summary)
	tw.Flush()
	fmt.Fprint(w, `
All available checks run unless some are named: -NAME runs only the checks named so,
-NAME=false skips one. Mistakes in directives are reported as "directive" whichever checks
run; -directive=false skips them.

Output:
  (default)        file:line:col: check: message, on stderr, then a summary line
                   ("idemlint: 21 findings in 5 of 37 packages")
  -json            go vet's JSON (package, check, diagnostics with fixes) on stdout
  -format=FORMAT   text, json, sarif (SARIF 2.1.0) or github (GitHub Actions annotations),
                   on stdout except text
  -sarif=FILE      also write SARIF to FILE
  -fix             apply the first suggested fix of each finding; prints a summary and the
                   findings left without an automatic fix
  -diff            with -fix, print the fixes as a patch instead of applying them:
                   --- a/FILE +++ b/FILE, for git apply or patch -p1 in this directory
  -tags=LIST       build tags, as for go build
  -p=N             analyse at most N packages at once (default: one per CPU); each is a
                   process of its own, so -p=1 bounds memory by the largest package

Configuration (the same names are settings of the golangci-lint plugin):
`)
	tw = tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	var debug []string
	for _, a := range all() {
		a.Flags.VisitAll(func(f *flag.Flag) {
			line := fmt.Sprintf("  -%s.%s\t%s\n", a.Name, f.Name, f.Usage)
			if slices.Contains(analyzers.Models(), a) && f.Name == "report" {
				debug = append(debug, line)
				return
			}
			fmt.Fprint(tw, line)
		})
	}
	tw.Flush()
	fmt.Fprint(w, `
Debugging the shared models (retryscope, keys, remote, depmap: they report nothing
themselves, and are not checks to enable or disable):
`)
	tw = tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	for _, l := range debug {
		fmt.Fprint(tw, l)
	}
	tw.Flush()
	fmt.Fprintf(w, `
Suppression:
  //idemlint:ignore NAME[,NAME...] reason
  on the line of a finding or the line above it, or in a function's doc comment for the whole
  function; NAME is a check or "all", and the reason is required. A directive that
  suppresses nothing (no reason, a name that is not a check, //idemlint:ingore, the spaced
  "// idemlint:ignore") is reported as "directive". Generated files are never reported.

Exit codes:
  0  no findings
  3  findings, whatever the output format (after -fix: findings left without an automatic
     fix; after -fix -diff: any finding)
  1  a package did not load or type-check, or the tool failed (wins over 3)
  2  usage error

Documentation: %s
`, analyzers.DocsURL)
}

// help prints the usage, or the documentation and flags of the named checks and models.
func help(stdout, stderr io.Writer, names []string) int {
	if len(names) == 0 {
		usage(stdout)
		return exitClean
	}
	for i, name := range names {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		if name == "map" {
			fmt.Fprint(stdout, mapUsage)
			continue
		}
		a := named(all(), name)
		if a == nil {
			fmt.Fprintf(stderr, "idemlint: no check named %q; run 'idemlint help' for the list\n", name)
			return exitUsage
		}
		kind := "check"
		if a == directive.Analyzer {
			kind = "rule: mistakes in //idemlint: directives, reported whichever checks run"
		} else if named(analyzers.Checks(), name) == nil {
			kind = "shared model: reports nothing itself, except with its debug flag"
		}
		fmt.Fprintf(stdout, "%s (%s)\n\n%s\n\nDocumentation: %s\n", a.Name, kind, a.Doc, a.URL)
		first := true
		a.Flags.VisitAll(func(f *flag.Flag) {
			if first {
				fmt.Fprintln(stdout, "\nFlags:")
				first = false
			}
			fmt.Fprintf(stdout, "  -%s.%s\n\t%s\n", a.Name, f.Name, f.Usage)
		})
	}
	return exitClean
}

// named returns the analyzer of that name in as, or nil.
func named(as []*analysis.Analyzer, name string) *analysis.Analyzer {
	for _, a := range as {
		if a.Name == name {
			return a
		}
	}
	return nil
}
