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

// TestDependencyHelper runs in module mode: the retry helper is in another module, whose loop
// the user cannot change, so the wait is reported at the call.
func TestDependencyHelper(t *testing.T) {
	testdata, _ := filepath.Abs("../../testdata/mod/depretry")
	checktest.Run(t, testdata, nojitter.Analyzer, "./consumer")
}
