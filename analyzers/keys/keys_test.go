package keys_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/analyzers/keys"
)

// TestModel checks the key model through its debug report (one diagnostic per generator call:
// where its value goes) and its facts (generators, parameters sent to sinks, minting functions).
func TestModel(t *testing.T) {
	if err := keys.Analyzer.Flags.Set("report", "true"); err != nil {
		t.Fatal(err)
	}
	defer keys.Analyzer.Flags.Set("report", "false")
	testdata, _ := filepath.Abs("../../testdata")
	analysistest.Run(t, testdata, keys.Analyzer, "keys/...")
}
