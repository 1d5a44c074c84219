package directive

import (
	_ "embed"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/analyzers/internal/docs"
	"github.com/idemlint/idemlint/analyzers/internal/guard"
	"github.com/idemlint/idemlint/analyzers/internal/report"
)

//go:embed doc.go
var doc string

// Analyzer reports mistakes in //idemlint: directives.
var Analyzer = &analysis.Analyzer{
	Name: "directive",
	Doc:  docs.MustExtract(doc, "directive"),
	URL:  docs.URL("directive"),
	Run:  guard.Run("directive", run),
}

func run(pass *analysis.Pass) (any, error) {
	for _, p := range report.Problems(pass) {
		pass.Report(analysis.Diagnostic{
			Pos:      p.Pos,
			End:      p.End,
			Category: "directive",
			Message:  p.Message,
			URL:      docs.URL("directive"),
		})
	}
	return nil, nil
}
