package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/idemlint/idemlint/analyzers"
)

// These tests build idemlint and drive it every way users do, on the small module in
// testdata/shop: standalone, go vet -vettool, go vet -fix -diff, go fix -fixtool.

var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "idemlint-bin")
	if err != nil {
		panic(err)
	}
	bin = filepath.Join(dir, "idemlint")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		panic(string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

const (
	message = `rand.Text makes a new idempotency key per attempt of retrylib.Do: retries cannot be deduplicated; move it out`
	want    = `payments/payments.go:18:10: keyinloop: ` + message
	// wantRelated are the places the finding involves, printed below it as go vet does.
	wantRelated = "payments/payments.go:17:9: \tretry callback\npayments/payments.go:23:17: \tsent as header \"Idempotency-Key\"\n"
)

// health is a package with two notimeout findings: http.Get (no automatic fix) and a client
// without a Timeout (fixed by adding one).
const health = `// Package health polls a dependency.
package health

import (
	"context"
	"net/http"
)

// Check asks the dependency whether it is up.
func Check(url string) error {
	resp, err := http.Get(url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

var plain = &http.Client{}

// Ping sends a request through a client without a timeout.
func Ping(url string) error {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := plain.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
`

// shop copies the test module into a fresh directory, with the extra files given as path,
// content pairs.
func shop(t *testing.T, files ...string) string {
	t.Helper()
	dst := t.TempDir()
	require.NoError(t, os.CopyFS(dst, os.DirFS("testdata/shop")))
	for i := 0; i+1 < len(files); i += 2 {
		p := filepath.Join(dst, files[i])
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(files[i+1]), 0o644))
	}
	return dst
}

type outcome struct {
	stdout, stderr string
	code           int
}

func run(t *testing.T, dir string, name string, args ...string) outcome {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return outcome{stdout.String(), progressNotes.ReplaceAllString(stderr.String(), ""), code}
}

// progressNotes are the notes the standalone driver prints when go vet takes a while: how
// often they come depends on the machine's load, so tests leave them out.
var progressNotes = regexp.MustCompile(`(?m)^idemlint: still working \(.*\n`)

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

func TestStandalone(t *testing.T) {
	t.Parallel()
	dir := shop(t)
	r := run(t, dir, bin, "./...")
	assert.Equal(t, exitFindings, r.code, "exit code with diagnostics")
	assert.Equal(t, want+"\n"+wantRelated+"idemlint: 1 finding in 1 of 2 packages\n", r.stderr, "exactly one diagnostic, naming its analyzer, and the summary")
	assert.Empty(t, r.stdout)

	r = run(t, dir, bin, "-keyinloop", "./...")
	assert.Equal(t, exitFindings, r.code)
	assert.Contains(t, r.stderr, want)

	r = run(t, dir, bin, "-keyinloop=false", "./...")
	assert.Equal(t, exitClean, r.code, "keyinloop disabled: %s", r.stderr)
	assert.Equal(t, "idemlint: no findings in 2 packages\n", r.stderr)

	r = run(t, dir, bin, "./payments", "./retrylib")
	assert.Equal(t, exitFindings, r.code, "package paths as well as patterns")
	assert.Contains(t, r.stderr, want)
}

func TestJSON(t *testing.T) {
	t.Parallel()
	r := run(t, shop(t), bin, "-json", "./...")
	assert.Equal(t, exitFindings, r.code, "findings exit 3 whatever the output format")
	var out map[string]map[string][]struct {
		Posn     string `json:"posn"`
		Message  string `json:"message"`
		Category string `json:"category"`
		Fixes    []any  `json:"suggested_fixes"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &out), r.stdout)
	diags := out["example.com/shop/payments"]["keyinloop"]
	require.Len(t, diags, 1)
	assert.Regexp(t, `payments\.go:18:10$`, diags[0].Posn)
	assert.Equal(t, message, diags[0].Message, "the analyzer is the key, not part of the message")
	assert.Len(t, diags[0].Fixes, 1)
	assert.Empty(t, r.stderr)
}

func TestGitHub(t *testing.T) {
	t.Parallel()
	r := run(t, shop(t), bin, "-format=github", "./...")
	assert.Equal(t, exitFindings, r.code)
	assert.Equal(t, "::warning file=payments/payments.go,line=18,col=10,endLine=18,endColumn=21,title=idemlint keyinloop::"+message+"\n", r.stdout)
}

func TestSARIF(t *testing.T) {
	t.Parallel()
	dir := shop(t, "health/health.go", health)
	r := run(t, dir, bin, "-format=sarif", "-sarif=also.sarif", "./...")
	assert.Equal(t, exitFindings, r.code, r.stderr)
	assert.Equal(t, r.stdout, read(t, filepath.Join(dir, "also.sarif")), "-sarif=FILE writes the same log")
	assert.Empty(t, validate(t, "testdata/sarif-schema-2.1.0.json", []byte(r.stdout)))

	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID               string
						HelpURI          string
						ShortDescription struct{ Text string }
					}
				}
			}
			OriginalURIBaseIDs map[string]struct{ URI string } `json:"originalUriBaseIds"`
			Invocations        []struct{ ExecutionSuccessful bool }
			Results            []struct {
				RuleID    string
				RuleIndex int
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI, URIBaseID string }
						Region           struct{ StartLine, StartColumn int }
					}
				}
				Fixes []struct {
					ArtifactChanges []struct {
						Replacements []struct {
							DeletedRegion   struct{ ByteOffset, ByteLength int }
							InsertedContent struct{ Text string }
						}
					}
				}
			}
		}
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &log))
	run := log.Runs[0]
	var ids []string
	for _, rule := range run.Tool.Driver.Rules {
		ids = append(ids, rule.ID)
		assert.Equal(t, "https://github.com/idemlint/idemlint/blob/main/docs/analyzers/"+rule.ID+".md", rule.HelpURI)
		assert.NotEmpty(t, rule.ShortDescription.Text)
	}
	var names []string
	for _, a := range checks() {
		names = append(names, a.Name)
	}
	assert.Equal(t, names, ids, "one rule per check, and one for directives")
	assert.Equal(t, "directive", ids[len(ids)-1])
	assert.True(t, run.Invocations[0].ExecutionSuccessful)
	require.Len(t, run.Results, 3)
	byRule := make(map[string]int)
	for _, res := range run.Results {
		byRule[res.RuleID]++
		assert.Equal(t, res.RuleID, ids[res.RuleIndex])
	}
	assert.Equal(t, map[string]int{"keyinloop": 1, "notimeout": 2}, byRule)
	k := run.Results[2] // results are in file order: health/ before payments/
	assert.Equal(t, message, k.Message.Text)
	loc := k.Locations[0].PhysicalLocation
	assert.Equal(t, "payments/payments.go", loc.ArtifactLocation.URI)
	assert.Equal(t, "%SRCROOT%", loc.ArtifactLocation.URIBaseID)
	assert.Equal(t, "file://"+filepath.ToSlash(dir)+"/", run.OriginalURIBaseIDs["%SRCROOT%"].URI)
	assert.Equal(t, [2]int{18, 10}, [2]int{loc.Region.StartLine, loc.Region.StartColumn})
	require.Len(t, k.Fixes, 1)
	reps := k.Fixes[0].ArtifactChanges[0].Replacements
	require.Len(t, reps, 2)
	assert.Equal(t, "key := rand.Text()\n\t", reps[0].InsertedContent.Text)
}

// A finding's related positions become SARIF related locations.
func TestSARIFRelated(t *testing.T) {
	var buf bytes.Buffer
	f := finding{Pkg: "p", Analyzer: "keyinloop", jsonDiagnostic: jsonDiagnostic{
		Posn: "/src/p/a.go:3:2", End: "/src/p/a.go:3:9", Message: "m",
		Related: []jsonRelated{{Posn: "/src/p/a.go:1:1", End: "/src/p/a.go:2:1", Message: "the retry scope"}},
	}}
	require.NoError(t, writeSARIF(&buf, []failure{{Pkg: "q", Msg: "q.go:1:1: undefined: x"}}, []finding{f}))
	assert.Empty(t, validate(t, "testdata/sarif-schema-2.1.0.json", buf.Bytes()))
	var log struct {
		Runs []struct {
			Invocations []struct {
				ExecutionSuccessful        bool
				ToolExecutionNotifications []struct {
					Level   string
					Message struct{ Text string }
				}
			}
			Results []struct {
				RelatedLocations []struct {
					ID               int
					Message          struct{ Text string }
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine, EndLine int }
					}
				}
			}
		}
	}
	require.NoError(t, json.Unmarshal(buf.Bytes(), &log))
	rel := log.Runs[0].Results[0].RelatedLocations
	require.Len(t, rel, 1)
	assert.Equal(t, "the retry scope", rel[0].Message.Text)
	assert.Equal(t, "file:///src/p/a.go", rel[0].PhysicalLocation.ArtifactLocation.URI)
	assert.Equal(t, [2]int{1, 2}, [2]int{rel[0].PhysicalLocation.Region.StartLine, rel[0].PhysicalLocation.Region.EndLine})
	inv := log.Runs[0].Invocations[0]
	assert.False(t, inv.ExecutionSuccessful)
	assert.Equal(t, "q: q.go:1:1: undefined: x", inv.ToolExecutionNotifications[0].Message.Text)
}

func TestExitCodes(t *testing.T) {
	t.Parallel()
	dir := shop(t)
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"-keyinloop=false", "./..."}, exitClean},
		{[]string{"./..."}, exitFindings},
		{[]string{"-p=1", "./..."}, exitFindings},
		{[]string{"-json", "./..."}, exitFindings},
		{[]string{"-format=sarif", "./..."}, exitFindings},
		{[]string{"-format=github", "./..."}, exitFindings},
		{[]string{"./paymnts"}, exitErrors},
		{[]string{}, exitUsage},
		{[]string{"-nosuch", "./..."}, exitUsage},
		{[]string{"-retryscope", "./..."}, exitUsage}, // a model is not a check to enable
		{[]string{"./...", "-json"}, exitUsage},
		{[]string{"-diff", "./..."}, exitUsage},
		{[]string{"-p=-1", "./..."}, exitUsage},
		{[]string{"-format=xml", "./..."}, exitUsage},
		{[]string{"-json", "-format=sarif", "./..."}, exitUsage},
		{[]string{"-notimeout.default=soon", "./..."}, exitUsage},
		{[]string{"help", "nosuch"}, exitUsage},
		{[]string{"help"}, exitClean},
		{[]string{"-h"}, exitClean},
	} {
		r := run(t, dir, bin, c.args...)
		assert.Equal(t, c.code, r.code, "idemlint %s\n%s", strings.Join(c.args, " "), r.stderr)
	}
}

func TestUsageErrors(t *testing.T) {
	t.Parallel()
	dir := shop(t)
	r := run(t, dir, bin, "./...", "-json")
	assert.Equal(t, "idemlint: flag -json after the packages: flags go before the packages\nRun 'idemlint help' for usage.\n", r.stderr)
	r = run(t, dir, bin, "-retryscope", "./...")
	assert.Equal(t, "idemlint: flag provided but not defined: -retryscope\nRun 'idemlint help' for usage.\n", r.stderr)
	r = run(t, dir, bin)
	assert.Contains(t, r.stderr, "Usage:")
	assert.Empty(t, r.stdout)
}

// A package that does not type-check, and one that imports it: the real error, once, as go
// vet prints it; nothing about failed prerequisites.
func TestBrokenPackage(t *testing.T) {
	t.Parallel()
	dir := shop(t,
		"broken/broken.go", "package broken\n\nfunc F() int { return \"x\" }\n",
		"usesbroken/uses.go", "package usesbroken\n\nimport \"example.com/shop/broken\"\n\nvar X = broken.F()\n")
	typeErr := `broken/broken.go:3:23: cannot use "x" (untyped string constant) as int value in return statement`

	r := run(t, dir, bin, "./...")
	assert.Equal(t, exitErrors, r.code)
	assert.Equal(t, "# example.com/shop/broken\n"+typeErr+"\n"+want+"\n"+wantRelated+
		"idemlint: 1 finding in 1 of 4 packages; 1 package did not load or type-check\n", r.stderr)
	assert.NotContains(t, r.stderr, "prerequisites")

	r = run(t, dir, bin, "-json", "./...")
	assert.Equal(t, exitErrors, r.code)
	var out map[string]map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &out), r.stdout)
	for _, check := range []string{"keyinloop", "notimeout"} {
		var e struct{ Error string }
		require.NoError(t, json.Unmarshal(out["example.com/shop/broken"][check], &e))
		assert.Equal(t, typeErr, e.Error, check)
	}
	assert.Contains(t, out, "example.com/shop/payments", "the other packages are still reported")
	assert.Empty(t, r.stderr)

	r = run(t, dir, bin, "./paymnts")
	assert.Equal(t, exitErrors, r.code)
	assert.Regexp(t, `^[^\n]*paymnts: directory not found\nidemlint: no findings; the run failed\n$`, r.stderr)

	r = run(t, dir, bin, "./...", "extra")
	assert.Equal(t, exitErrors, r.code)
	assert.Regexp(t, `^package extra is not in std [^\n]*\nidemlint: no findings; the run failed\n$`, r.stderr)
}

func TestFix(t *testing.T) {
	t.Parallel()
	dir := shop(t)
	file := filepath.Join(dir, "payments", "payments.go")
	orig := read(t, file)

	r := run(t, dir, bin, "-fix", "-diff", "./...")
	assert.Contains(t, r.stdout, "+\tkey := rand.Text()")
	assert.Equal(t, orig, read(t, file), "-diff must not change files")
	assert.Equal(t, exitFindings, r.code, "-diff changes nothing: the finding is still there")
	assert.Equal(t, "idemlint: printed 1 fix to 1 file as a diff, not applied; no findings left without an automatic fix\n"+
		"idemlint: 1 finding in 1 of 2 packages\n", r.stderr)

	r = run(t, dir, bin, "-fix", "./...")
	assert.Equal(t, exitClean, r.code, r.stderr)
	assert.Equal(t, "idemlint: applied 1 fix to 1 file; no findings left without an automatic fix\n"+
		"idemlint: no findings left in 2 packages\n", r.stderr)
	assert.Equal(t, read(t, filepath.Join(dir, "payments", "payments.go.fixed")), read(t, file))

	r = run(t, dir, bin, "./...")
	assert.Equal(t, exitClean, r.code, "nothing left to report after the fix: %s", r.stderr)
}

// twoClients has two fixes far apart, and one that adds an import: -fix -diff prints three
// changes in two hunks, the second one's line numbers shifted by the first's added line.
const twoClients = `// Package clients holds two clients.
package clients

import (
	"context"
	"net/http"
)

var a = &http.Client{}

// A sends a request through a client without a timeout.
func A(url string) error {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := a.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

var b = &http.Client{}

// B sends a request through a client without a timeout.
func B(url string) error {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := b.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
`

// -fix -diff prints a patch that git apply and patch -p1 accept, and that does what -fix does.
func TestFixDiffApplies(t *testing.T) {
	t.Parallel()
	dir := shop(t, "clients/clients.go", twoClients)
	fixed := shop(t, "clients/clients.go", twoClients)
	r := run(t, fixed, bin, "-fix", "./...")
	require.Equal(t, exitClean, r.code, r.stderr)

	r = run(t, dir, bin, "-fix", "-diff", "./...")
	require.Equal(t, exitFindings, r.code, r.stderr)
	patch := r.stdout
	assert.Contains(t, patch, "--- a/clients/clients.go\n+++ b/clients/clients.go\n")
	assert.Contains(t, patch, "--- a/payments/payments.go\n+++ b/payments/payments.go\n")
	assert.Equal(t, 3, strings.Count(patch, "\n@@ "), "two hunks in clients.go, one in payments.go:\n%s", patch)
	assert.Contains(t, patch, "\n@@ -21,7 +22,7 @@\n", "the second hunk counts the line the first one added")

	for _, c := range [][]string{{"git", "init", "-q"}, {"git", "apply", "--check", "-"}, {"git", "apply", "-"}} {
		cmd := exec.Command(c[0], c[1:]...)
		cmd.Dir = dir
		cmd.Stdin = strings.NewReader(patch)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s: %s\n%s", strings.Join(c, " "), out, patch)
	}
	for _, f := range []string{"clients/clients.go", "payments/payments.go"} {
		assert.Equal(t, read(t, filepath.Join(fixed, f)), read(t, filepath.Join(dir, f)), "git apply of -fix -diff gives what -fix writes: %s", f)
	}

	if _, err := exec.LookPath("patch"); err == nil {
		again := shop(t, "clients/clients.go", twoClients)
		cmd := exec.Command("patch", "-p1", "--dry-run")
		cmd.Dir = again
		cmd.Stdin = strings.NewReader(patch)
		out, err := cmd.CombinedOutput()
		assert.NoError(t, err, "patch -p1: %s", out)
	}
}

func TestFixLeavesFindings(t *testing.T) {
	t.Parallel()
	dir := shop(t, "health/health.go", health)
	r := run(t, dir, bin, "-fix", "./...")
	assert.Equal(t, exitFindings, r.code, "a finding without an automatic fix is left")
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	require.Len(t, lines, 3, r.stderr)
	assert.Equal(t, "idemlint: applied 2 fixes to 2 files; 1 finding left without an automatic fix:", lines[0])
	assert.Regexp(t, `^health/health.go:11:15: notimeout: http.Get uses http.DefaultClient`, lines[1])
	assert.Equal(t, "idemlint: 1 finding left in 1 of 3 packages", lines[2])
	assert.Contains(t, read(t, filepath.Join(dir, "health", "health.go")), "&http.Client{Timeout: 30 * time.Second}")

	r = run(t, dir, bin, "-json", "-fix", "./...")
	assert.Equal(t, exitFindings, r.code)
	assert.Equal(t, "idemlint: no finding has an automatic fix:\n", r.stderr)
	assert.Contains(t, r.stdout, `"notimeout"`)
}

func TestHelp(t *testing.T) {
	t.Parallel()
	r := run(t, ".", bin, "help")
	assert.Equal(t, exitClean, r.code)
	for _, a := range analyzers.Checks() {
		assert.Regexp(t, fmt.Sprintf(`(?m)^  %s +check +\S`, a.Name), r.stdout)
	}
	assert.Regexp(t, `(?m)^  directive +rule +\S`, r.stdout, "directive mistakes have a rule of their own")
	for _, s := range []string{"-keys.names", "-notimeout.default", "-retryscope.report", "//idemlint:ignore NAME", "3  findings", "-format=FORMAT", "-sarif=FILE"} {
		assert.Contains(t, r.stdout, s)
	}
	for _, m := range analyzers.Models() {
		assert.NotRegexp(t, `(?m)^\s+-`+m.Name+`\s`, r.stdout, "a model is not offered as a check")
	}

	bare := run(t, ".", bin)
	assert.Equal(t, exitUsage, bare.code)
	assert.Equal(t, r.stdout, bare.stderr, "bare idemlint prints the same usage, to stderr")

	r = run(t, ".", bin, "help", "keyinloop")
	assert.Equal(t, exitClean, r.code)
	assert.Contains(t, r.stdout, "keyinloop (check)")
	assert.Contains(t, r.stdout, "docs/analyzers/keyinloop.md")

	r = run(t, ".", bin, "help", "directive")
	assert.Equal(t, exitClean, r.code)
	assert.Contains(t, r.stdout, "docs/analyzers/directive.md")

	r = run(t, ".", bin, "help", "retryscope")
	assert.Contains(t, r.stdout, "shared model")
	assert.Contains(t, r.stdout, "-retryscope.helpers")

	r = run(t, ".", bin, "help", "nojitter")
	assert.Equal(t, exitClean, r.code)
	assert.Contains(t, r.stdout, "nojitter (check)")

	r = run(t, ".", bin, "help", "nosuchcheck")
	assert.Equal(t, exitUsage, r.code)
}

// A directive that suppresses nothing is reported under its own rule, directive, whichever
// checks run.
func TestDirectiveMistakes(t *testing.T) {
	t.Parallel()
	dir := shop(t)
	file := filepath.Join(dir, "payments", "payments.go")
	orig := read(t, file)
	with := func(directive string) {
		src := strings.Replace(orig, "\t\tkey := rand.Text()\n", "\t\t"+directive+"\n\t\tkey := rand.Text()\n", 1)
		require.NoError(t, os.WriteFile(file, []byte(src), 0o644))
	}
	const misspelt = `payments/payments.go:18:3: directive: idemlint:ignore names "keyinlop", which is not a check, so it suppresses nothing: did you mean keyinloop?`
	with("//idemlint:ignore keyinlop the provider dedupes on the order id")
	r := run(t, dir, bin, "./...")
	assert.Equal(t, exitFindings, r.code)
	assert.Contains(t, r.stderr, misspelt)
	assert.Contains(t, r.stderr, "payments/payments.go:19:10: keyinloop: rand.Text makes a new idempotency key", "the misspelt directive suppresses nothing")
	for _, args := range [][]string{{"-notimeout"}, {"-keyinloop=false"}, {"-keyinloop=false", "-notimeout=false"}} {
		r = run(t, dir, bin, append(args, "./...")...)
		assert.Equal(t, exitFindings, r.code, "%v: %s", args, r.stderr)
		assert.Contains(t, r.stderr, misspelt, "choosing checks does not hide directive mistakes: %v", args)
	}
	r = run(t, dir, bin, "-directive=false", "-keyinloop=false", "./...")
	assert.Equal(t, exitClean, r.code, r.stderr)
	r = run(t, dir, bin, "-directive", "./...")
	assert.Equal(t, exitFindings, r.code)
	assert.Contains(t, r.stderr, misspelt)
	assert.NotContains(t, r.stderr, "keyinloop: rand.Text", "-directive runs only the directive rule")

	r = run(t, dir, bin, "-json", "./...")
	var out map[string]map[string][]struct{ Message, Category string }
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &out), r.stdout)
	require.Len(t, out["example.com/shop/payments"]["directive"], 1, r.stdout)
	assert.Equal(t, "directive", out["example.com/shop/payments"]["directive"][0].Category)

	r = run(t, dir, "go", "vet", "-vettool="+bin, "-notimeout", "./...")
	assert.Contains(t, r.stderr, strings.TrimPrefix(misspelt, "payments/"), "go vet -vettool -notimeout: %s", r.stderr)

	with("//idemlint:ingore keyinloop the provider dedupes on the order id")
	r = run(t, dir, bin, "./...")
	assert.Equal(t, exitFindings, r.code)
	assert.Contains(t, r.stderr, "payments/payments.go:18:3: directive: //idemlint:ingore is not an idemlint directive, so it does nothing: did you mean //idemlint:ignore?")
	assert.Contains(t, r.stderr, "payments/payments.go:19:10: keyinloop: rand.Text")

	with("// idemlint:ignore keyinloop the provider dedupes on the order id")
	r = run(t, dir, bin, "./...")
	assert.Contains(t, r.stderr, `payments/payments.go:18:3: directive: "// idemlint:ignore" is an ordinary comment, so it suppresses nothing: write //idemlint:ignore, with no space after //`)

	with("//idemlint:ignore keyinloop the provider dedupes on the order id")
	r = run(t, dir, bin, "./...")
	assert.Equal(t, exitClean, r.code, r.stderr)
}

// A second run on unchanged code is answered from the go command's cache.
func TestRerunCached(t *testing.T) {
	t.Parallel()
	dir := shop(t)
	salt := fmt.Sprintf("-keys.names=x-test-%d", os.Getpid()) // a key the cache has not seen
	cold := measure(t, dir, bin, salt, "./...")
	warm := measure(t, dir, bin, salt, "./...")
	assert.Less(t, warm.Wall*3, cold.Wall, "re-run %v, first run %v", warm.Wall, cold.Wall)
	assert.Equal(t, exitFindings, warm.Code, "the cached run reports the same")
}

// status is a package without findings that imports health and ping.
const status = `// Package status reports on the shop's dependencies.
package status

import (
	"example.com/shop/health"
	"example.com/shop/ping"
)

// Up reports whether the dependency at url answers.
func Up(url string) bool { return health.Check(url) == nil && ping.Once(url) == nil }
`

// ping is a package with one notimeout finding and tests of its own.
const ping = `// Package ping asks a dependency once.
package ping

import "net/http"

// Once sends one request.
func Once(url string) error {
	resp, err := http.Get(url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
`

const pingTest = `package ping

import "testing"

func TestOnce(t *testing.T) {
	if Once("http://127.0.0.1:1") == nil {
		t.Fatal("no error")
	}
}
`

// pingXTest imports health, which imports ping: go vet analyses health again, built against
// ping with its tests, for the external test's facts.
const pingXTest = `package ping_test

import (
	"testing"

	"example.com/shop/health"
)

func TestTwice(t *testing.T) {
	if health.Twice("http://127.0.0.1:1") == nil {
		t.Fatal("no error")
	}
}
`

const healthTwice = `package health

import "example.com/shop/ping"

// Twice asks twice.
func Twice(url string) error {
	if err := ping.Once(url); err != nil {
		return err
	}
	return ping.Once(url)
}
`

// The go command caches a package's vet output whether it ran as a root or only for a
// dependent's facts: the standalone driver must report a package's findings whichever way it
// ran before, and only for the packages it is asked about.
func TestCachedDependency(t *testing.T) {
	t.Parallel()
	dir := shop(t, "health/health.go", health, "status/status.go", status, "ping/ping.go", ping, "ping/ping_test.go", pingTest, "ping/x_test.go", pingXTest, "health/twice.go", healthTwice)
	healthFindings := regexp.MustCompile(`(?m)^health/health\.go:\d+:\d+: notimeout: `)
	pingFindings := regexp.MustCompile(`(?m)^ping/ping\.go:\d+:\d+: notimeout: `)

	r := run(t, dir, bin, "./status")
	assert.Equal(t, exitClean, r.code, r.stderr)
	assert.Equal(t, "idemlint: no findings in 1 package\n", r.stderr)

	r = run(t, dir, bin, "./...")
	assert.Equal(t, exitFindings, r.code)
	assert.Len(t, healthFindings.FindAllString(r.stderr, -1), 2, "health was analysed for its facts before; its findings must not be lost:\n%s", r.stderr)
	assert.Len(t, pingFindings.FindAllString(r.stderr, -1), 1, "ping, with its tests and alone, is reported once:\n%s", r.stderr)

	r = run(t, dir, bin, "-json", "./...")
	assert.Equal(t, exitFindings, r.code)
	var out map[string]map[string][]struct{ Posn string }
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &out), r.stdout)
	assert.Len(t, out["example.com/shop/health"]["notimeout"], 2, r.stdout)
	assert.Len(t, out["example.com/shop/ping"]["notimeout"], 1, r.stdout)

	r = run(t, dir, bin, "./status")
	assert.Equal(t, exitClean, r.code, "health's findings are not status's: %s", r.stderr)
	assert.Equal(t, "idemlint: no findings in 1 package\n", r.stderr)

	r = run(t, dir, bin, "-json", "./status")
	assert.Equal(t, exitClean, r.code, r.stderr)
	assert.Equal(t, "{}\n", r.stdout)
}

func TestGoVet(t *testing.T) {
	t.Parallel()
	dir := shop(t)
	// The helper is in another package: the finding needs retryscope's facts across packages.
	r := run(t, dir, "go", "vet", "-vettool="+bin, "./...")
	assert.Equal(t, 1, r.code, r.stderr)
	assert.Contains(t, r.stderr, want, "go vet's text output names the analyzer")

	r = run(t, dir, "go", "vet", "-vettool="+bin, "-keyinloop=false", "./...")
	assert.Equal(t, 0, r.code, r.stderr)

	r = run(t, dir, "go", "vet", "-vettool="+bin, "-retryscope.report", "-keyinloop", "./...")
	assert.Equal(t, 1, r.code, r.stderr)
	assert.Contains(t, r.stderr, "payments/payments.go:17:9: retry callback (example.com/shop/retrylib.Do)", "a model's debug report, with a check chosen")
	assert.Contains(t, r.stderr, want)
}

func TestGoVetFixDiff(t *testing.T) {
	t.Parallel()
	dir := shop(t)
	file := filepath.Join(dir, "payments", "payments.go")
	orig := read(t, file)
	r := run(t, dir, "go", "vet", "-vettool="+bin, "-fix", "-diff", "./...")
	assert.Equal(t, 1, r.code, "a non-empty diff exits 1: %s", r.stderr)
	assert.Contains(t, r.stdout, "+\tkey := rand.Text()")
	assert.Contains(t, r.stdout, "-\t\tkey := rand.Text()")
	assert.Equal(t, orig, read(t, file))
}

func TestGoFix(t *testing.T) {
	t.Parallel()
	dir := shop(t)
	r := run(t, dir, "go", "fix", "-fixtool="+bin, "./...")
	assert.Equal(t, 0, r.code, r.stderr)
	file := filepath.Join(dir, "payments", "payments.go")
	assert.Equal(t, read(t, filepath.Join(dir, "payments", "payments.go.fixed")), read(t, file))
}

func TestVersion(t *testing.T) {
	t.Parallel()
	r := run(t, ".", bin, "-V=full")
	assert.Equal(t, 0, r.code)
	// The go command's tool-ID protocol: "NAME version devel ... buildID=HASH".
	assert.Regexp(t, regexp.MustCompile(`^idemlint version devel \S+ buildID=[0-9a-f]{64}\n$`), r.stdout)

	r = run(t, ".", bin, "-version")
	assert.Equal(t, 0, r.code)
	assert.Regexp(t, `^idemlint \S+`, r.stdout)
}

// -version gives the commit and its date, from the build information.
func TestVersionOf(t *testing.T) {
	info := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "4d269f6c1a2b3c4d5e6f708192a3b4c5d6e7f809"},
		{Key: "vcs.time", Value: "2026-11-30T18:02:11Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	assert.Equal(t, "(devel) 4d269f6c1a2b 2026-11-30T18:02:11Z +changes", versionOf(info))
	info.Settings[3].Value = "false"
	assert.Equal(t, "(devel) 4d269f6c1a2b 2026-11-30T18:02:11Z", versionOf(info))
	assert.Equal(t, "v0.3.0", versionOf(&debug.BuildInfo{Main: debug.Module{Version: "v0.3.0"}}))
	info.Main.Version = "v0.0.0-20261130180211-4d269f6c1a2b"
	assert.Equal(t, "v0.0.0-20261130180211-4d269f6c1a2b 2026-11-30T18:02:11Z", versionOf(info), "a pseudo-version names the commit already")
	info.Main.Version += "+dirty"
	info.Settings[3].Value = "true"
	assert.Equal(t, "v0.0.0-20261130180211-4d269f6c1a2b+dirty 2026-11-30T18:02:11Z", versionOf(info))
	assert.Contains(t, versionOf(&debug.BuildInfo{}), "(devel) (built without VCS information")
}

// scripts/lint stamps the checkout's commit, also where the go command does not (a git
// worktree, GOFLAGS=-buildvcs=false).
func TestVersionFromCheckout(t *testing.T) {
	t.Parallel()
	git := exec.Command("git", "log", "-1", "--format=%H %cd", "--date=format-local:%Y-%m-%dT%H:%M:%SZ")
	git.Env = append(os.Environ(), "TZ=UTC")
	head, err := git.Output()
	if err != nil {
		t.Skip("not a git checkout: ", err)
	}
	f := strings.Fields(string(head))
	script, err := filepath.Abs(filepath.Join("..", "..", "scripts", "lint"))
	require.NoError(t, err)
	r := run(t, t.TempDir(), "bash", script, "-version")
	assert.Equal(t, 0, r.code, r.stderr)
	// "(devel) REV DATE" from a worktree, "v0.0.0-TIME-REV DATE" where the go command makes a
	// pseudo-version of the commit (a clone, Go 1.24 and later).
	assert.Regexp(t, `^idemlint (\(devel\) |v\S+-)`+f[0][:12]+`(\+dirty)? `+regexp.QuoteMeta(f[1])+`( \+changes)?\n$`, r.stdout)
}

// A library's http.DefaultClient fallback is one finding at the library when the library is
// in the module being checked: its callers are not reported again. When the library is
// another module (a dependency, whose findings this run does not show), the callers that
// pass a context without a deadline are the only place the user sees the problem: reported.
func TestLibraryDefaultOtherModule(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	lib := `package lib

import (
	"context"
	"net/http"
)

type clientKey struct{}

func WithClient(ctx context.Context, c *http.Client) context.Context {
	return context.WithValue(ctx, clientKey{}, c)
}

func send(ctx context.Context, req *http.Request) (*http.Response, error) {
	c := http.DefaultClient
	if cc, ok := ctx.Value(clientKey{}).(*http.Client); ok {
		c = cc
	}
	return c.Do(req.WithContext(ctx))
}

// Discover fetches a discovery document with the caller's context.
func Discover(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := send(ctx, req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
`
	files := map[string]string{
		"lib/go.mod":     "module example.com/lib\n\ngo 1.24\n",
		"lib/lib.go":     lib,
		"app/go.mod":     "module example.com/app\n\ngo 1.24\n\nrequire example.com/lib v0.0.0\n\nreplace example.com/lib => ../lib\n",
		"app/own/own.go": strings.Replace(lib, "package lib", "package own", 1),
		"app/main.go": `package main

import (
	"context"
	"log"

	"example.com/app/own"
	"example.com/lib"
)

func main() {
	if err := lib.Discover(context.Background(), "https://issuer.example.com/.well-known/openid-configuration"); err != nil {
		log.Fatal(err)
	}
	if err := own.Discover(context.Background(), "https://issuer.example.com/.well-known/openid-configuration"); err != nil {
		log.Fatal(err)
	}
}
`,
	}
	for name, content := range files {
		p := filepath.Join(root, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	r := run(t, filepath.Join(root, "app"), bin, "-notimeout", "./...")
	assert.Equal(t, exitFindings, r.code, r.stderr)
	assert.Contains(t, r.stderr, "main.go:12:12: notimeout: lib.Discover passes a context without a deadline to Client.Do", "the dependency's default, seen only at the call")
	assert.Contains(t, r.stderr, "own/own.go:15:12: notimeout: http.DefaultClient has no Timeout as the default", "the module's own default, at the fallback")
	assert.NotContains(t, r.stderr, "main.go:15", "a call of the module's own library is covered by its finding")
}
