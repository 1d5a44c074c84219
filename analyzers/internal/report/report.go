// Package report is how every idemlint check reports: it drops diagnostics in generated files,
// honours //idemlint:ignore directives, and reports directives that lack a reason.
//
// A directive has the form
//
//	//idemlint:ignore NAME[,NAME...] reason
//
// where NAME is an analyzer name or "all". It suppresses the named analyzers' diagnostics on its
// own line and on the line below it, or, in the doc comment of a
// function declaration, in the whole function. A directive without a reason suppresses nothing
// and is itself reported, so that every exception in a code base says why it is one.
package report

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/analyzers/internal/docs"
)

const prefix = "//idemlint:ignore"

// A Reporter reports one analyzer's diagnostics for one pass.
type Reporter struct {
	pass      *analysis.Pass
	name      string
	generated map[*token.File]bool
	lines     map[*token.File]map[int]bool // suppressed lines
	spans     [][2]token.Pos               // suppressed function bodies
}

// New returns the Reporter for the named analyzer and reports that analyzer's malformed
// directives in the pass's files.
func New(pass *analysis.Pass, name string) *Reporter {
	r := &Reporter{
		pass:      pass,
		name:      name,
		generated: make(map[*token.File]bool),
		lines:     make(map[*token.File]map[int]bool),
	}
	for _, f := range pass.Files {
		tf := pass.Fset.File(f.FileStart)
		if tf == nil {
			continue
		}
		if ast.IsGenerated(f) {
			r.generated[tf] = true
			continue
		}
		funcDocs := make(map[*ast.CommentGroup]*ast.FuncDecl)
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Doc != nil {
				funcDocs[fd.Doc] = fd
			}
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				names, reason, ok := parse(c.Text)
				if !ok || !names[name] && !names["all"] {
					continue
				}
				if reason == "" {
					pass.Report(analysis.Diagnostic{
						Pos:      c.Pos(),
						End:      c.End(),
						Category: name,
						Message:  fmt.Sprintf("idemlint:ignore directive for %s has no reason, so it suppresses nothing", name),
						URL:      docs.URL(name),
					})
					continue
				}
				if fd := funcDocs[cg]; fd != nil {
					r.spans = append(r.spans, [2]token.Pos{fd.Pos(), fd.End()})
					continue
				}
				line := tf.Line(c.Pos())
				if r.lines[tf] == nil {
					r.lines[tf] = make(map[int]bool)
				}
				r.lines[tf][line] = true
				r.lines[tf][line+1] = true
			}
		}
	}
	return r
}

// parse splits a directive comment into analyzer names and reason.
func parse(text string) (names map[string]bool, reason string, ok bool) {
	rest, ok := strings.CutPrefix(text, prefix)
	if !ok || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return nil, "", false
	}
	fields := strings.Fields(rest)
	names = make(map[string]bool)
	if len(fields) == 0 {
		names["all"] = true // a bare directive names nothing; report it under every analyzer
		return names, "", true
	}
	for n := range strings.SplitSeq(fields[0], ",") {
		names[strings.TrimSpace(n)] = true
	}
	return names, strings.Join(fields[1:], " "), true
}

// Suppressed reports whether a diagnostic at pos is dropped.
func (r *Reporter) Suppressed(pos token.Pos) bool {
	tf := r.pass.Fset.File(pos)
	if tf == nil {
		return false
	}
	if r.generated[tf] {
		return true
	}
	if r.lines[tf][tf.Line(pos)] {
		return true
	}
	for _, s := range r.spans {
		if s[0] <= pos && pos < s[1] {
			return true
		}
	}
	return false
}

// Report reports d unless it is suppressed, filling in its category and URL.
func (r *Reporter) Report(d analysis.Diagnostic) {
	if r.Suppressed(d.Pos) {
		return
	}
	if d.Category == "" {
		d.Category = r.name
	}
	if d.URL == "" {
		d.URL = docs.URL(r.name)
	}
	r.pass.Report(d)
}

// Reportf reports a diagnostic without fixes.
func (r *Reporter) Reportf(pos, end token.Pos, format string, args ...any) {
	r.Report(analysis.Diagnostic{Pos: pos, End: end, Message: fmt.Sprintf(format, args...)})
}
