package nestedretry_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/analyzers/nestedretry"
)

func TestNestedRetry(t *testing.T) {
	testdata, _ := filepath.Abs("../../testdata")
	analysistest.Run(t, testdata, nestedretry.Analyzer, "nestedretry/...")
}
