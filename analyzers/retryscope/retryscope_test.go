package retryscope_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/analyzers/retryscope"
)

func TestScopes(t *testing.T) {
	if err := retryscope.Analyzer.Flags.Set("report", "true"); err != nil {
		t.Fatal(err)
	}
	defer retryscope.Analyzer.Flags.Set("report", "false")
	testdata, _ := filepath.Abs("../../testdata")
	analysistest.Run(t, testdata, retryscope.Analyzer, "retryscope/...", "github.com/nats-io/nats.go/jetstream") // the library's own consumer
}
