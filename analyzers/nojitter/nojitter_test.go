package nojitter_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/analyzers/nojitter"
)

func TestNoJitter(t *testing.T) {
	testdata, _ := filepath.Abs("../../testdata")
	analysistest.RunWithSuggestedFixes(t, testdata, nojitter.Analyzer, "nojitter/...")
}
