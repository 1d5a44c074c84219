package nestedretry_test

import (
	"path/filepath"
	"testing"

	"github.com/idemlint/idemlint/analyzers/internal/checktest"
	"github.com/idemlint/idemlint/analyzers/nestedretry"
)

func TestNestedRetry(t *testing.T) {
	testdata, _ := filepath.Abs("../../testdata")
	checktest.Run(t, testdata, nestedretry.Analyzer, "nestedretry/...")
}
