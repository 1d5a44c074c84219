package keyinloop_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/analyzers/keyinloop"
)

func TestKeyInLoop(t *testing.T) {
	testdata, _ := filepath.Abs("../../testdata")
	analysistest.RunWithSuggestedFixes(t, testdata, keyinloop.Analyzer, "keyinloop/...")
}
