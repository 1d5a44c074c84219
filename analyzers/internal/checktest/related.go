package checktest

import (
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/tools/go/analysis/analysistest"
)

// A "related" comment on the line of a diagnostic lists, as Go strings, the Related positions
// the diagnostic must carry, in order, each as "file.go:LINE: message" (those of several
// diagnostics on one line one after the other, in the order they are reported):
//
//	c.Hello(ctx, "x") // related "uselib.go:18: context.TODO() has no deadline" // want `...`
//
// Every diagnostic with Related positions needs one, and every one needs a diagnostic.

var quoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

type line struct {
	file string
	line int
}

// relatedComments returns the expectations of the "related" comments in files.
func relatedComments(t *testing.T, fset *token.FileSet, files []*ast.File) map[line][]string {
	want := make(map[line][]string)
	for _, f := range files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				text, ok := strings.CutPrefix(c.Text, "// related ")
				if !ok {
					continue
				}
				text, _, _ = strings.Cut(text, "// want")
				p := fset.Position(c.Pos())
				k := line{p.Filename, p.Line}
				for _, q := range quoted.FindAllString(text, -1) {
					s, err := strconv.Unquote(q)
					if err != nil {
						t.Errorf("%s: bad related comment: %v", p, err)
					}
					want[k] = append(want[k], s)
				}
				if len(want[k]) == 0 {
					t.Errorf("%s: related comment without expectations", p)
				}
			}
		}
	}
	return want
}

// CheckRelated checks the Related positions of every diagnostic against the "related"
// comments, and the shape of every message: short, lower-case, no positions in the text.
func CheckRelated(t *testing.T, results []*analysistest.Result) {
	t.Helper()
	position := regexp.MustCompile(`\bline \d|\.go:\d`)
	for _, r := range results {
		pkg := r.Action.Package
		want := relatedComments(t, pkg.Fset, pkg.Syntax)
		got := make(map[line][]string)
		for _, d := range r.Diagnostics {
			p := pkg.Fset.Position(d.Pos)
			k := line{p.Filename, p.Line}
			if len(d.Message) > 120 {
				t.Errorf("%s: message of %d characters: %s", p, len(d.Message), d.Message)
			}
			if first, _, _ := strings.Cut(d.Message, " "); !strings.Contains(first, ".") && unicode.IsUpper([]rune(first)[0]) && strings.ToUpper(first) != first &&
				pkg.Types.Scope().Lookup(first) == nil { // a name of the package (Charge) keeps its case
				t.Errorf("%s: message starts with a capital letter: %s", p, d.Message)
			}
			if position.MatchString(d.Message) {
				t.Errorf("%s: message gives a position: %s", p, d.Message)
			}
			if _, seen := got[k]; !seen {
				got[k] = nil
			}
			for _, rel := range d.Related {
				rp := pkg.Fset.Position(rel.Pos)
				got[k] = append(got[k], fmt.Sprintf("%s:%d: %s", filepath.Base(rp.Filename), rp.Line, rel.Message))
			}
		}
		for k, g := range got {
			if w := want[k]; !slices.Equal(g, w) {
				t.Errorf("%s:%d: Related\n\tgot  %q\n\twant %q", k.file, k.line, g, w)
			}
		}
		for k := range want {
			if _, ok := got[k]; !ok {
				t.Errorf("%s:%d: related comment, but no diagnostic", k.file, k.line)
			}
		}
	}
}
