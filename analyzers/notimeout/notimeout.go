package notimeout

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/idemlint/idemlint/analyzers/internal/docs"
	"github.com/idemlint/idemlint/analyzers/internal/report"
	"github.com/idemlint/idemlint/analyzers/internal/syntax"
	"github.com/idemlint/idemlint/analyzers/remote"
)

//go:embed doc.go
var doc string

var Analyzer = &analysis.Analyzer{
	Name:     "notimeout",
	Doc:      docs.MustExtract(doc, "notimeout"),
	URL:      docs.URL("notimeout"),
	Requires: []*analysis.Analyzer{remote.Analyzer, inspect.Analyzer},
	Run:      run,
}

// Default is the timeout the suggested fix gives a client (-notimeout.default).
var Default = Duration(30 * time.Second)

func init() {
	Analyzer.Flags.Var(&Default, "default", "the timeout the suggested fix gives an http.Client (a Go duration, such as 30s or 500ms)")
}

// Duration is a flag.Value holding a positive time.Duration.
type Duration time.Duration

func (d *Duration) String() string { return time.Duration(*d).String() }

func (d *Duration) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	if v <= 0 {
		return fmt.Errorf("the default timeout must be positive, not %s", s)
	}
	*d = Duration(v)
	return nil
}

type checker struct {
	pass  *analysis.Pass
	rep   *report.Reporter
	insp  *inspector.Inspector
	calls *syntax.Calls
	lits  map[token.Pos]inspector.Cursor // *ast.CompositeLit by Lbrace
}

// A group is the calls sending requests without a deadline through one client the package
// builds: reported once, at the client.
type group struct {
	origin *remote.Origin
	calls  []*remote.Call
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[remote.Analyzer].(*remote.Result)
	if len(res.Calls) == 0 || testSupport(pass) {
		return nil, nil
	}
	c := &checker{
		pass:  pass,
		rep:   report.New(pass, "notimeout"),
		insp:  pass.ResultOf[inspect.Analyzer].(*inspector.Inspector),
		calls: syntax.NewCalls(pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)),
	}
	var groups []*group
	byOrigin := make(map[token.Pos]*group)
	for _, call := range res.Calls {
		if call.Timeout.Status != remote.Unbounded || call.Stream || call.Contract.Kind != 0 || call.Loopback || c.inTest(call.Pos()) {
			continue
		}
		if o := call.Timeout.Client; call.Kind == remote.HTTP && call.Via == nil && o != nil && grouped(o) && !c.inTest(o.Pos) {
			g := byOrigin[o.Pos]
			if g == nil {
				g = &group{origin: o}
				byOrigin[o.Pos] = g
				groups = append(groups, g)
			}
			g.calls = append(g.calls, call)
			continue
		}
		c.reportCall(call)
	}
	for _, g := range groups {
		c.reportClient(g)
	}
	return nil, nil
}

// grouped reports whether calls through a client from o are reported at o: a client the
// package builds, whose declaration is the line to change.
func grouped(o *remote.Origin) bool {
	switch o.Kind {
	case remote.Local, remote.ZeroVar, remote.ZeroField:
		return o.Pos.IsValid()
	}
	return false
}

// testImports are packages that only code written for tests imports.
var testImports = []string{
	"testing",
	"github.com/stretchr/testify/",
	"github.com/onsi/ginkgo",
	"github.com/onsi/gomega",
	"go.uber.org/mock/gomock",
	"github.com/golang/mock/gomock",
	"gotest.tools/",
}

// testSupport reports whether the package is written for tests rather than production, by
// its name: testutil, testsuite, footesting, footestutil, or footest importing a package foo
// (as httptest imports http). Its remote calls talk to test servers.
func testSupport(pass *analysis.Pass) bool {
	name := pass.Pkg.Name()
	for _, suffix := range []string{"testing", "testutil", "testutils", "testhelper", "testhelpers"} {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	if strings.HasPrefix(name, "test") {
		return true
	}
	if base, ok := strings.CutSuffix(name, "test"); ok && base != "" {
		for _, imp := range pass.Pkg.Imports() {
			if imp.Name() == base {
				return true // apmtest for apm, transporttest for transport
			}
		}
	}
	return false
}

// testFile reports whether f is written for tests: it imports a testing package. (A package
// may mix production code and a test suite for its users, file by file.)
func testFile(f *ast.File) bool {
	for _, imp := range f.Imports {
		path := strings.Trim(imp.Path.Value, "`\"")
		for _, t := range testImports {
			if path == t || strings.HasSuffix(t, "/") && strings.HasPrefix(path, t) || strings.HasPrefix(path, t+"/") {
				return true
			}
		}
	}
	return false
}

// inTest reports whether pos is in a _test.go file or a file written for tests.
func (c *checker) inTest(pos token.Pos) bool {
	tf := c.pass.Fset.File(pos)
	if tf == nil {
		return false
	}
	if strings.HasSuffix(tf.Name(), "_test.go") {
		return true
	}
	f := syntax.File(c.pass, pos)
	return f != nil && testFile(f)
}
