package keyinloop_test

import (
	"path/filepath"
	"testing"

	"github.com/idemlint/idemlint/analyzers/internal/checktest"
	"github.com/idemlint/idemlint/analyzers/keyinloop"
)

func TestKeyInLoop(t *testing.T) {
	testdata, _ := filepath.Abs("../../testdata")
	checktest.Run(t, testdata, keyinloop.Analyzer, "keyinloop/...")
}
