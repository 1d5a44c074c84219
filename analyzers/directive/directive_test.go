package directive_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/analyzers/directive"
)

// recorder collects analysistest's complaints instead of failing.
type recorder struct{ errs []string }

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func TestDirective(t *testing.T) {
	testdata, _ := filepath.Abs("../../testdata")
	rec := new(recorder)
	analysistest.Run(rec, testdata, directive.Analyzer, "directive/...")
	// A directive without a reason is reported on its own line, which no // want comment can
	// share (it would become the reason); everything else must match the expectations.
	const noReason = "idemlint:ignore directive has no reason, so it suppresses nothing: write //idemlint:ignore NAME reason"
	var unexpected []string
	found := false
	for _, e := range rec.errs {
		if strings.Contains(e, "mistakes.go:18:") && strings.Contains(e, noReason) {
			found = true
			continue
		}
		unexpected = append(unexpected, e)
	}
	if len(unexpected) > 0 {
		t.Errorf("unexpected results:\n%s", strings.Join(unexpected, "\n"))
	}
	if !found {
		t.Errorf("the directive without a reason was not reported")
	}
}
