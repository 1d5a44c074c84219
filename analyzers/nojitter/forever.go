package nojitter

import (
	"fmt"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/report"
	"github.com/idemlint/idemlint/analyzers/internal/ssapkg"
	"github.com/idemlint/idemlint/analyzers/internal/testcode"
)

// checkForever reports the calls that hand context.Background() or context.TODO() to a
// function whose retries have no attempt cap and end only when that context is done: with
// the dependency down, they never end.
func (c *checker) checkForever() {
	for _, fn := range c.pass.ResultOf[ssapkg.Analyzer].(*buildssa.SSA).SrcFuncs {
		if testcode.At(c.pass, fn.Pos()) {
			continue
		}
		for call := range flow.Calls(fn) {
			if !c.res.UntilBackground(call) {
				continue
			}
			name := flow.QualifiedName(flow.Callee(call.Common()), c.pass.Pkg)
			c.rep.Report(analysis.Diagnostic{Pos: c.start(call.Pos()), Message: report.Fit(
				fmt.Sprintf("%s retries with no attempt cap until its context is done, and this one never is: it retries for ever while the dependency is down; pass a context with a deadline", name),
				fmt.Sprintf("%s retries with no attempt cap until its context is done, and this one never is: it retries for ever", name),
				fmt.Sprintf("%s retries until its context is done, and this one never is: it retries for ever", name))})
		}
	}
}
