package report_test

import (
	"fmt"
	"go/ast"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/analyzers/internal/report"
)

// demo reports every call of a function named bad, through a Reporter, as the keyinloop
// check would: directives name idemlint's checks.
var demo = &analysis.Analyzer{
	Name: "keyinloop",
	Doc:  "report calls of bad",
	Run: func(pass *analysis.Pass) (any, error) {
		r := report.New(pass, "keyinloop")
		for _, f := range pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "bad" {
						r.Reportf(call.Pos(), call.End(), "call of bad")
					}
				}
				return true
			})
		}
		return nil, nil
	},
}

// recorder collects analysistest's complaints instead of failing.
type recorder struct{ errs []string }

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func TestDirectives(t *testing.T) {
	testdata, _ := filepath.Abs("../../../testdata")
	rec := new(recorder)
	analysistest.Run(rec, testdata, demo, "report/...")
	// A directive without a reason is reported on its own line, which no // want comment can
	// share (it would become the reason); everything else must match the expectations.
	var unexpected []string
	for _, e := range rec.errs {
		if strings.Contains(e, "directives.go:38:") && strings.Contains(e, "idemlint:ignore directive for keyinloop has no reason, so it suppresses nothing") {
			continue
		}
		unexpected = append(unexpected, e)
	}
	if len(unexpected) > 0 {
		t.Errorf("unexpected results:\n%s", strings.Join(unexpected, "\n"))
	}
	if len(rec.errs) == len(unexpected) {
		t.Errorf("the directive without a reason was not reported")
	}
}
