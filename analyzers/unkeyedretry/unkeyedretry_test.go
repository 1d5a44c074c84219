package unkeyedretry_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/analyzers/unkeyedretry"
)

func TestUnkeyedRetry(t *testing.T) {
	testdata, _ := filepath.Abs("../../testdata")
	analysistest.RunWithSuggestedFixes(t, testdata, unkeyedretry.Analyzer, "unkeyedretry/loops", "unkeyedretry/libs")
}
