package analyzers_test

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/idemlint/idemlint/analyzers"
	"github.com/idemlint/idemlint/analyzers/internal/docs"
)

// The analyzers are what Bazel's nogo and other drivers need: valid *analysis.Analyzer values
// whose facts survive gob, and no global state that one run leaves behind for the next.
func TestDriverContract(t *testing.T) {
	if err := analysis.Validate(analyzers.All()); err != nil {
		t.Fatal(err)
	}
	testdata, err := filepath.Abs("../testdata")
	if err != nil {
		t.Fatal(err)
	}
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  filepath.Join(testdata, "src"),
		Env:  append(os.Environ(), "GOPATH="+testdata, "GO111MODULE=off", "GOPROXY=off", "GOWORK=off", "GOFLAGS="),
	}
	pkgs, err := packages.Load(cfg, "keyinloop/...", "notimeout/...")
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 10 {
		t.Fatalf("loaded %d packages", len(pkgs))
	}
	results := func() string {
		// SanityCheck encodes every fact with gob, decodes it and checks that it comes back
		// equal, and that encoding is deterministic.
		g, err := checker.Analyze(analyzers.Checks(), pkgs, &checker.Options{SanityCheck: true})
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		for act := range g.All() {
			if act.Err != nil {
				t.Errorf("%s: %v", act, act.Err)
			}
			if !act.IsRoot {
				continue
			}
			for _, d := range act.Diagnostics {
				lines = append(lines, fmt.Sprintf("%s: %s: %s (%d fixes)", act.Package.Fset.Position(d.Pos), act.Analyzer.Name, d.Message, len(d.SuggestedFixes)))
			}
		}
		slices.Sort(lines)
		return strings.Join(lines, "\n")
	}
	first := results()
	if strings.Count(first, "\n") < 20 {
		t.Fatalf("too few findings to compare:\n%s", first)
	}
	if second := results(); second != first {
		t.Errorf("a second run in the same process gives other results:\nfirst:\n%s\nsecond:\n%s", first, second)
	}
}

// Every fact type can be registered with gob, as drivers do, under a name of its own, and
// comes back as itself.
func TestFactsGob(t *testing.T) {
	for _, a := range analyzers.All() {
		for _, f := range a.FactTypes {
			gob.Register(f) // panics when two types claim one name
			var buf bytes.Buffer
			if err := gob.NewEncoder(&buf).Encode(&f); err != nil {
				t.Errorf("%s: %T: %v", a.Name, f, err)
				continue
			}
			var back analysis.Fact
			if err := gob.NewDecoder(&buf).Decode(&back); err != nil {
				t.Errorf("%s: %T: %v", a.Name, f, err)
				continue
			}
			if reflect.TypeOf(back) != reflect.TypeOf(f) {
				t.Errorf("%s: %T came back as %T", a.Name, f, back)
			}
		}
	}
}

// Each analyzer's URL is its page under docs/, and each check of the roster is named in
// docs.Checks, so that directives, help and the docs know it.
func TestDocPages(t *testing.T) {
	for _, a := range analyzers.All() {
		page, ok := strings.CutPrefix(a.URL, docs.BaseURL)
		if !ok {
			t.Errorf("%s: URL %s is not under %s", a.Name, a.URL, docs.BaseURL)
			continue
		}
		if _, err := os.Stat(filepath.Join("..", filepath.FromSlash(page))); err != nil {
			t.Errorf("%s: URL %s: %v", a.Name, a.URL, err)
		}
	}
	for _, a := range analyzers.Checks() {
		if !slices.ContainsFunc(docs.Checks(), func(c docs.Check) bool { return c.Name == a.Name }) {
			t.Errorf("check %s is not in docs.Checks", a.Name)
		}
	}
	if len(docs.Checks()) != len(analyzers.Checks()) {
		t.Errorf("docs.Checks lists %d checks, analyzers.Checks %d", len(docs.Checks()), len(analyzers.Checks()))
	}
}
