// Package testcode tells code written for tests from production code, for checks that leave
// tests alone: _test.go files, files that import a testing package, and test-support packages.
package testcode

import (
	"go/ast"
	"go/token"
	"go/types"
	"path"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/syntax"
)

// imports are packages that only code written for tests imports.
var imports = []string{
	"testing",
	"github.com/stretchr/testify/",
	"github.com/onsi/ginkgo",
	"github.com/onsi/gomega",
	"go.uber.org/mock/gomock",
	"github.com/golang/mock/gomock",
	"gotest.tools/",
}

// stdSupport are the standard library's packages written for tests.
var stdSupport = map[string]bool{"net/http/httptest": true, "testing/fstest": true, "testing/iotest": true}

// Package reports whether the package is written for tests rather than production, by its
// name: testutil, testsuite, e2e, footesting, footestutil, or footest importing a package
// foo (as httptest imports http) or kept in a directory named test (rpctest in rpc/test), or
// footest whose own files import package testing or another test-only package (an end-to-end suite's harness); or whether it is a benchmark harness, named (or, for a
// command, in a directory named) like bench, benchmarks, redisbench or nats-bench; or a
// command in a directory named like a test harness (rdma-test, e2e_tests, loadtest); or a
// package inside an end-to-end suite's directory (test/e2e/pkg/request), or inside a directory
// named test or tests (test/helper).
func Package(pass *analysis.Pass) bool {
	name := pass.Pkg.Name()
	if bench(name) || name == "main" && (bench(path.Base(pass.Pkg.Path())) || harness(path.Base(pass.Pkg.Path()))) {
		return true
	}
	for _, suffix := range []string{"testing", "testutil", "testutils", "testhelper", "testhelpers"} {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	if strings.HasPrefix(name, "test") || name == "e2e" || strings.HasSuffix(name, "e2e") {
		return true
	}
	// A package of an end-to-end suite's tree (test/e2e/pkg/request, e2e/framework): the
	// directory names the suite as the package name would.
	for _, seg := range strings.Split(path.Dir(pass.Pkg.Path()), "/") {
		if seg == "e2e" || strings.HasSuffix(seg, "-e2e") || strings.HasSuffix(seg, "_e2e") {
			return true
		}
	}
	mod := ""
	if pass.Module != nil {
		mod = pass.Module.Path
	}
	if inTestTree(pass.Pkg.Path(), mod) {
		return true
	}
	if dir := path.Base(pass.Pkg.Path()); strings.HasSuffix(name, "test") && (dir == "test" || dir == "tests") {
		return true // rpctest in rpc/test: named a test package, in a directory named so
	}
	if base, ok := strings.CutSuffix(name, "test"); ok && base != "" {
		for _, imp := range pass.Pkg.Imports() {
			if imp.Name() == base {
				return true // apmtest for apm, transporttest for transport
			}
		}
		if importsTesting(pass) {
			return true // e2etest, whose suite takes a *testing.T: a harness, named so
		}
	}
	return false
}

// importsTesting reports whether one of the package's own files (not a _test.go file)
// imports a package only test code imports (testing, testify, ...).
func importsTesting(pass *analysis.Pass) bool {
	for _, f := range pass.Files {
		if tf := pass.Fset.File(f.Pos()); tf != nil && !strings.HasSuffix(tf.Name(), "_test.go") && importsTestSupport(f) {
			return true
		}
	}
	return false
}

// inTestTree reports whether the package at pkgPath lies in a directory of its module named
// test or tests (test/helper, tests/integration/fixtures): the tree Go projects keep their
// integration suites and their helpers in. Only the directories inside the module count (its
// path, or for a path without one the first three elements of a host-based path, may hold
// such a name).
func inTestTree(pkgPath, module string) bool {
	rel := pkgPath
	switch {
	case module != "" && (pkgPath == module || strings.HasPrefix(pkgPath, module+"/")):
		rel = strings.TrimPrefix(strings.TrimPrefix(pkgPath, module), "/")
	case module == "" && strings.Contains(strings.Split(pkgPath, "/")[0], "."):
		parts := strings.SplitN(pkgPath, "/", 4)
		if len(parts) < 4 {
			return false
		}
		rel = parts[3]
	}
	if rel == "" {
		return false
	}
	for _, seg := range strings.Split(path.Dir(rel), "/") {
		if seg == "test" || seg == "tests" {
			return true
		}
	}
	return false
}

// At reports whether pos is in a _test.go file or in a file that imports a testing package
// (a package may mix production code and a test suite for its users, file by file), or in a
// function handed a test reporter: testing.TB or a look-alike, such as a mock server's
// constructor taking a Reporter, or a method of a type that keeps one.
func At(pass *analysis.Pass, pos token.Pos) bool {
	tf := pass.Fset.File(pos)
	if tf == nil {
		return false
	}
	if strings.HasSuffix(tf.Name(), "_test.go") {
		return true
	}
	f := syntax.File(pass, pos)
	if f == nil {
		return false
	}
	if reportedTo(pass, f, pos) {
		return true
	}
	return importsTestSupport(f)
}

// importsTestSupport reports whether file f imports one of the packages only test code
// imports (see imports).
func importsTestSupport(f *ast.File) bool {
	for _, imp := range f.Imports {
		path := strings.Trim(imp.Path.Value, "`\"")
		for _, t := range imports {
			if path == t || strings.HasSuffix(t, "/") && strings.HasPrefix(path, t) || strings.HasPrefix(path, t+"/") {
				return true
			}
		}
	}
	return false
}

// bench reports whether a package or directory name says it holds a benchmark harness: it
// starts or ends with bench, or ends with benchmark or benchmarks.
func bench(name string) bool {
	name = strings.ToLower(name)
	return strings.HasPrefix(name, "bench") || strings.HasSuffix(name, "bench") ||
		strings.HasSuffix(name, "benchmark") || strings.HasSuffix(name, "benchmarks")
}

// harness reports whether a command's directory name says it holds a test harness: one of
// its words (split at - _ .) is test, tests, e2e, loadtest, smoketest, stresstest, soaktest,
// testserver or testutil (rdma-test, e2e_tests), or it waits for a dependency to come up
// (wait-for, waitfor, as compose and CI set-ups run before the tests). Not latest, attest,
// testnet-faucet or e2ee-relay.
func harness(name string) bool {
	name = strings.ToLower(name)
	if strings.HasPrefix(name, "wait-for") || strings.HasPrefix(name, "waitfor") || strings.HasPrefix(name, "wait_for") {
		return true
	}
	for _, w := range strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		switch w {
		case "test", "tests", "e2e", "loadtest", "smoketest", "stresstest", "soaktest", "testserver", "testutil":
			return true
		}
	}
	return false
}

// reportedTo reports whether pos is in a function of f that takes a test reporter, or in a
// method of a struct that holds one.
func reportedTo(pass *analysis.Pass, f *ast.File, pos token.Pos) bool {
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || pos < fd.Pos() || pos >= fd.End() {
			continue
		}
		for _, field := range fd.Type.Params.List {
			if reporter(pass.TypesInfo.TypeOf(field.Type)) {
				return true
			}
		}
		if fd.Recv != nil && len(fd.Recv.List) == 1 {
			recv := pass.TypesInfo.TypeOf(fd.Recv.List[0].Type)
			if p, ok := recv.(*types.Pointer); ok {
				recv = p.Elem()
			}
			if st, ok := recv.Underlying().(*types.Struct); ok {
				for i := range st.NumFields() {
					if reporter(st.Field(i).Type()) {
						return true
					}
				}
			}
		}
		return false
	}
	return false
}

// reporter reports whether t reports test failures: it has Fatal or Fatalf, Errorf, and
// Helper or FailNow, as testing.TB and the interfaces that stand for it do (a logger with
// Fatalf and Errorf has neither of the last two).
func reporter(t types.Type) bool {
	if t == nil {
		return false
	}
	ms := types.NewMethodSet(t)
	if _, isInterface := t.Underlying().(*types.Interface); !isInterface {
		if _, isPointer := t.(*types.Pointer); !isPointer {
			ms = types.NewMethodSet(types.NewPointer(t))
		}
	}
	has := func(name string) bool { return ms.Lookup(nil, name) != nil }
	return (has("Fatal") || has("Fatalf")) && has("Errorf") && (has("Helper") || has("FailNow"))
}

// Made reports whether the value v is made in test code (see At): a function declared there,
// or a value computed by a function written there (a test's stand-in stored into a field);
// or by a test-support package of the standard library (an httptest.Server's Client, stored
// into a client field by a helper that builds a client for tests).
func Made(pass *analysis.Pass, v ssa.Value) bool {
	if c, ok := v.(*ssa.Call); ok {
		if fn := c.Common().StaticCallee(); fn != nil && fn.Object() != nil && fn.Object().Pkg() != nil && stdSupport[fn.Object().Pkg().Path()] {
			return true
		}
	}
	pos := v.Pos()
	switch x := v.(type) {
	case ssa.Instruction:
		if x.Parent() != nil {
			pos = x.Parent().Pos()
		}
	case *ssa.FreeVar:
		pos = x.Parent().Pos()
	case *ssa.Parameter:
		pos = x.Parent().Pos()
	}
	return At(pass, pos)
}
