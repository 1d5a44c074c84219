package remote_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/analyzers/remote"
)

func TestModel(t *testing.T) {
	if err := remote.Analyzer.Flags.Set("report", "true"); err != nil {
		t.Fatal(err)
	}
	defer remote.Analyzer.Flags.Set("report", "false")
	testdata, _ := filepath.Abs("../../testdata")
	analysistest.Run(t, testdata, remote.Analyzer, "remote/...")
}
