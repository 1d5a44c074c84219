// Package checktest runs a check's analysistest cases together with what every check's tests
// must also hold: each golden file (the package's file with all suggested fixes applied)
// type-checks with the rest of its package, so a fix that is well-formed but does not build
// fails the test.
package checktest

import (
	"fmt"
	"go/format"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/packages"
)

// Run runs a over the packages matching patterns in the GOPATH-style tree testdata, checks its
// diagnostics against the // want comments and its fixes against the .golden files, and then
// type-checks every package that has golden files with those files in place of the originals.
func Run(t *testing.T, testdata string, a *analysis.Analyzer, patterns ...string) []*analysistest.Result {
	t.Helper()
	if os.Getenv("IDEMLINT_UPDATE_RELATED") != "" || os.Getenv("IDEMLINT_UPDATE_WANTS") != "" {
		updateRelated(t, analysistest.Run(t, testdata, a, patterns...), os.Getenv("IDEMLINT_UPDATE_WANTS") != "")
	}
	if os.Getenv("IDEMLINT_UPDATE_GOLDEN") != "" {
		updateGoldens(t, analysistest.Run(t, testdata, a, patterns...))
	}
	results := analysistest.RunWithSuggestedFixes(t, testdata, a, patterns...)
	CheckRelated(t, results)
	dirs := make(map[string]bool)
	fixed := make(map[string]bool) // files some fix edits
	for _, r := range results {
		for _, f := range r.Pass.Files {
			dirs[filepath.Dir(r.Pass.Fset.File(f.Pos()).Name())] = true
		}
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				for _, e := range f.TextEdits {
					fixed[r.Pass.Fset.File(e.Pos).Name()] = true
				}
			}
		}
	}
	// analysistest compares only the goldens of files that get a fix: one whose file gets
	// none is a fix the analyzer no longer suggests.
	for d := range dirs {
		goldens, _ := filepath.Glob(filepath.Join(d, "*.go.golden"))
		for _, g := range goldens {
			if !fixed[strings.TrimSuffix(g, ".golden")] {
				t.Errorf("%s: no fix is suggested in %s any more: delete the golden or restore the fix", g, filepath.Base(strings.TrimSuffix(g, ".golden")))
			}
		}
	}
	var sorted []string
	for d := range dirs {
		sorted = append(sorted, d)
	}
	sort.Strings(sorted)
	for _, dir := range sorted {
		CompileGoldens(t, testdata, dir)
	}
	return results
}

// CompileGoldens type-checks the package in dir (inside the GOPATH-style tree testdata) with
// each of its X.go.golden files in place of X.go, and fails t with the compiler's errors.
func CompileGoldens(t *testing.T, testdata, dir string) {
	t.Helper()
	goldens, _ := filepath.Glob(filepath.Join(dir, "*.go.golden"))
	if len(goldens) == 0 {
		return
	}
	overlay := make(map[string][]byte)
	for _, g := range goldens {
		content, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(string(content), "-- ") {
			t.Errorf("%s: a golden file with one section per fix: idemlint gives one fix per diagnostic", g)
			continue
		}
		overlay[strings.TrimSuffix(g, ".golden")] = content
	}
	cfg := &packages.Config{
		Mode:    packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedTypes | packages.NeedDeps,
		Dir:     dir,
		Env:     append(os.Environ(), "GOPATH="+testdata, "GO111MODULE=off", "GOWORK=off", "GOFLAGS="),
		Overlay: overlay,
	}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil {
		t.Fatalf("loading %s with its goldens: %v", dir, err)
	}
	for _, p := range pkgs {
		for _, e := range p.Errors {
			t.Errorf("%s with its goldens does not build: %v", p.PkgPath, e)
		}
	}
}

// updateGoldens writes each file's golden from the fixes of the results (for
// IDEMLINT_UPDATE_GOLDEN=1 go test): every fix applied, identical edits once.
func updateGoldens(t *testing.T, results []*analysistest.Result) {
	t.Helper()
	byFile := make(map[string][]analysis.TextEdit)
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				for _, e := range f.TextEdits {
					name := r.Pass.Fset.File(e.Pos).Name()
					byFile[name] = append(byFile[name], e)
				}
			}
		}
		for name, edits := range byFile {
			tf := fileOf(r.Pass.Fset, name)
			src, err := os.ReadFile(name)
			if err != nil || tf == nil {
				t.Fatal(err)
			}
			type span struct {
				start, end int
				text       string
			}
			seen := make(map[span]bool)
			var spans []span
			for _, e := range edits {
				s := span{tf.Offset(e.Pos), tf.Offset(e.End), string(e.NewText)}
				if !seen[s] {
					seen[s] = true
					spans = append(spans, s)
				}
			}
			sort.SliceStable(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
			var out strings.Builder
			at := 0
			for _, s := range spans {
				if s.start < at {
					t.Errorf("%s: overlapping fixes at offset %d", name, s.start)
					continue
				}
				out.Write(src[at:s.start])
				out.WriteString(s.text)
				at = s.end
			}
			out.Write(src[at:])
			content := []byte(out.String())
			if formatted, err := format.Source(content); err == nil {
				content = formatted // as analysistest compares them
			}
			if err := os.WriteFile(name+".golden", content, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		clear(byFile)
	}
}

func fileOf(fset *token.FileSet, name string) *token.File {
	var found *token.File
	fset.Iterate(func(f *token.File) bool {
		if f.Name() == name {
			found = f
		}
		return found == nil
	})
	return found
}

// updateRelated writes the "related" comment of every diagnostic's line from its Related
// positions (for IDEMLINT_UPDATE_RELATED=1 go test), removing those of lines without any; with
// wants (IDEMLINT_UPDATE_WANTS=1), it also rewrites the line's expected messages as the
// messages reported there, quoted, keeping its expectations of facts.
func updateRelated(t *testing.T, results []*analysistest.Result, wants bool) {
	t.Helper()
	type key struct {
		file string
		line int
	}
	rel := make(map[key][]string)
	msgs := make(map[key][]string)
	files := make(map[string]bool)
	seen := make(map[string]bool)
	for _, r := range results {
		if r.Pass == nil {
			continue // the package did not load: analysistest has said why
		}
		fset := r.Pass.Fset
		for _, f := range r.Pass.Files {
			files[fset.File(f.Pos()).Name()] = true
		}
		for _, d := range r.Diagnostics {
			p := fset.Position(d.Pos)
			k := key{p.Filename, p.Line}
			if seen[fmt.Sprint(p, d.Message)] {
				continue // the same package analysed again with its tests
			}
			seen[fmt.Sprint(p, d.Message)] = true
			var qs []string
			for _, ri := range d.Related {
				rp := fset.Position(ri.Pos)
				qs = append(qs, strconv.Quote(fmt.Sprintf("%s:%d: %s", filepath.Base(rp.Filename), rp.Line, ri.Message)))
			}
			rel[k] = append(rel[k], qs...)
			msgs[k] = append(msgs[k], d.Message)
		}
	}
	for name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(src), "\n")
		for i, l := range lines {
			code, comment, hasWant := strings.Cut(l, " // want")
			if i := strings.Index(code, " // related "); i >= 0 {
				code = code[:i]
			}
			qs := rel[key{name, i + 1}]
			if len(qs) > 0 {
				code += " // related " + strings.Join(qs, " ")
			}
			if wants && (hasWant || len(msgs[key{name, i + 1}]) > 0) {
				comment = rewriteWant(comment, msgs[key{name, i + 1}])
				hasWant = comment != ""
			}
			if hasWant {
				code += " // want" + comment
			}
			lines[i] = code
		}
		if err := os.WriteFile(name, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// wantToken is one expectation of a want comment: a fact's (name:"re") or a message's ("re").
var wantToken = regexp.MustCompile("(\\w+:)?(`[^`]*`|\"(?:[^\"\\\\]|\\\\.)*\")")

// rewriteWant returns the text after "// want" with its message expectations replaced by
// msgs, quoted as exact patterns, and its fact expectations kept.
func rewriteWant(comment string, msgs []string) string {
	var out []string
	for _, m := range wantToken.FindAllStringSubmatch(comment, -1) {
		if m[1] != "" {
			out = append(out, m[0])
		}
	}
	for _, msg := range msgs {
		q := regexp.QuoteMeta(msg)
		if strings.Contains(q, "`") {
			out = append(out, strconv.Quote(q))
		} else {
			out = append(out, "`"+q+"`")
		}
	}
	if len(out) == 0 {
		return ""
	}
	return " " + strings.Join(out, " ")
}
