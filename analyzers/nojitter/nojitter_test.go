package nojitter_test

import (
	"path/filepath"
	"testing"

	"github.com/idemlint/idemlint/analyzers/internal/checktest"
	"github.com/idemlint/idemlint/analyzers/nojitter"
)

func TestNoJitter(t *testing.T) {
	testdata, _ := filepath.Abs("../../testdata")
	checktest.Run(t, testdata, nojitter.Analyzer, "nojitter/...")
}
