// Package docs extracts an analyzer's documentation from its package doc comment, gives each
// analyzer the address of its page under docs/, and names idemlint's checks, built or planned.
//
// Each analyzer package has a doc.go whose package comment holds a section
//
//	# Analyzer NAME
//
//	NAME: one-line summary
//
//	Longer text...
//
// and embeds that file with //go:embed so that Analyzer.Doc and pkg.go.dev show the same text.
package docs

import (
	"fmt"
	"go/parser"
	"go/token"
	"strings"
)

// BaseURL is where the repository's docs/ directory is published.
const BaseURL = "https://github.com/idemlint/idemlint/blob/main/"

// Page returns the path, from the repository's root, of the named analyzer's page.
func Page(name string) string { return "docs/analyzers/" + name + ".md" }

// URL returns the address of the named analyzer's page.
func URL(name string) string { return BaseURL + Page(name) }

// A Check names one of idemlint's checks.
type Check struct {
	Name string
}

// Checks returns the names of idemlint's checks, for the packages that cannot import the
// analyzers themselves (the directive parser, which knows what a directive may name);
// analyzers_test keeps it equal to analyzers.Checks.
func Checks() []Check {
	return []Check{
		{Name: "keyinloop"},
		{Name: "notimeout"},
		{Name: "nojitter"},
		{Name: "nestedretry"},
		{Name: "unkeyedretry"},
	}
}

// MustExtract is Extract that panics on error; use it in package initialisation, where a
// malformed doc.go is a programming error caught by every test.
func MustExtract(content, name string) string {
	doc, err := Extract(content, name)
	if err != nil {
		panic(err)
	}
	return doc
}

// Extract returns the text of the "# Analyzer NAME" section of the package doc comment in
// content (Go source), without the "NAME:" prefix of its first line.
func Extract(content, name string) (string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", content, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		return "", fmt.Errorf("doc for %s: %v", name, err)
	}
	if f.Doc == nil {
		return "", fmt.Errorf("doc for %s: no package doc comment", name)
	}
	for section := range strings.SplitSeq("\n"+f.Doc.Text(), "\n# ") {
		body, ok := strings.CutPrefix(section, "Analyzer "+name)
		if !ok || body == "" || (body[0] != '\n' && body[0] != '\r') {
			continue
		}
		body = strings.TrimSpace(body)
		rest, ok := strings.CutPrefix(body, name+":")
		if !ok {
			return "", fmt.Errorf("doc for %s: heading not followed by %q", name, name+": summary")
		}
		return strings.TrimSpace(rest), nil
	}
	return "", fmt.Errorf("doc for %s: no '# Analyzer %s' section", name, name)
}
