package report_test

import (
	"go/ast"
	"path/filepath"
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

// Suppression only: mistakes in directives are the directive analyzer's to report
// (analyzers/directive), so a misspelt, spaced or reasonless directive suppresses nothing here
// and reports nothing either.
func TestDirectives(t *testing.T) {
	testdata, _ := filepath.Abs("../../../testdata")
	analysistest.Run(t, testdata, demo, "report/...")
}
