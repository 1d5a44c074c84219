package main

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/analysis"
)

// The standalone driver runs "go vet -vettool=<this executable> -json" on the packages and
// prints what it reports in the chosen format. The go command analyses one package per process,
// in dependency order, passing facts through files (so memory is bounded by the largest
// package, not the program), runs as many processes as there are CPUs, and caches each
// package's result (so a second run on unchanged code returns at once).

// Exit codes.
const (
	exitClean    = 0 // no findings
	exitErrors   = 1 // a package could not be loaded or type-checked, or the tool failed
	exitUsage    = 2 // a bad flag or argument
	exitFindings = 3 // findings
)

// options are the standalone driver's command line.
type options struct {
	format    string // text, json, sarif or github
	sarifFile string // also write SARIF here
	fix, diff bool
	tags      string
	procs     int      // -p: packages analysed at once (0: the go command's default, one per CPU)
	gate      string   // the directory of the run's gate (see gate.go)
	toolArgs  []string // analyzer flags, passed on to the tool as given
	enable    map[string]*tristate
	patterns  []string
}

var errHelp = errors.New("help requested")

// parseArgs reads the standalone command line; an error is a usage error (or errHelp).
func parseArgs(args []string) (*options, error) {
	o := &options{enable: make(map[string]*tristate)}
	fs := flag.NewFlagSet("idemlint", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var jsonOut bool
	fs.BoolVar(&jsonOut, "json", false, "")
	fs.StringVar(&o.format, "format", "text", "")
	fs.StringVar(&o.sarifFile, "sarif", "", "")
	fs.BoolVar(&o.fix, "fix", false, "")
	fs.BoolVar(&o.diff, "diff", false, "")
	fs.StringVar(&o.tags, "tags", "", "")
	fs.IntVar(&o.procs, "p", 0, "")
	for _, a := range checks() {
		o.enable[a.Name] = new(tristate)
		fs.Var(&passthrough{name: a.Name, value: o.enable[a.Name], bool: true, args: &o.toolArgs}, a.Name, "")
	}
	for _, a := range all() {
		a.Flags.VisitAll(func(f *flag.Flag) {
			name := a.Name + "." + f.Name
			fs.Var(&passthrough{name: name, value: f.Value, bool: isBool(f), args: &o.toolArgs}, name, "")
		})
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, errHelp
		}
		return nil, err
	}
	if jsonOut {
		if o.format != "text" && o.format != "json" {
			return nil, fmt.Errorf("-json and -format=%s cannot be used together", o.format)
		}
		o.format = "json"
	}
	if !slices.Contains([]string{"text", "json", "sarif", "github"}, o.format) {
		return nil, fmt.Errorf("-format=%s: want text, json, sarif or github", o.format)
	}
	if o.procs < 0 {
		return nil, fmt.Errorf("-p=%d: want a number of packages, at least 1", o.procs)
	}
	if o.diff && !o.fix {
		return nil, errors.New("-diff requires -fix")
	}
	if o.diff && o.format != "text" {
		return nil, fmt.Errorf("-diff prints to stdout, as -format=%s does: use -sarif=FILE instead", o.format)
	}
	o.patterns = fs.Args()
	if len(o.patterns) == 0 {
		return nil, errors.New("no packages named (try ./...)")
	}
	for _, p := range o.patterns {
		if strings.HasPrefix(p, "-") {
			return nil, fmt.Errorf("flag %s after the packages: flags go before the packages", p)
		}
	}
	return o, nil
}

// passthrough is an analyzer flag of the standalone driver: its value is checked by the
// analyzer's own flag and passed on to the tool as given.
type passthrough struct {
	name  string
	value flag.Value
	bool  bool
	args  *[]string
}

func (p *passthrough) String() string   { return "" }
func (p *passthrough) IsBoolFlag() bool { return p.bool }
func (p *passthrough) Set(s string) error {
	if err := p.value.Set(s); err != nil {
		return err
	}
	*p.args = append(*p.args, "-"+p.name+"="+s)
	return nil
}

// enabledChecks returns the names of the checks that the command line runs.
func (o *options) enabledChecks() []string {
	var names []string
	for _, a := range chosen(checks(), func(a *analysis.Analyzer) tristate { return *o.enable[a.Name] }) {
		names = append(names, a.Name)
	}
	return names
}

// A finding is one diagnostic, as go vet's JSON gives it.
type finding struct {
	Pkg      string `json:"-"`
	Analyzer string `json:"-"`
	jsonDiagnostic
}

type jsonDiagnostic struct {
	Category       string        `json:"category,omitempty"`
	Posn           string        `json:"posn"`
	End            string        `json:"end"`
	Message        string        `json:"message"`
	SuggestedFixes []jsonFix     `json:"suggested_fixes,omitempty"`
	Related        []jsonRelated `json:"related,omitempty"`
}

type jsonFix struct {
	Message string     `json:"message"`
	Edits   []jsonEdit `json:"edits"`
}

type jsonEdit struct {
	Filename string `json:"filename"`
	Start    int    `json:"start"`
	End      int    `json:"end"`
	New      string `json:"new"`
}

type jsonRelated struct {
	Posn    string `json:"posn"`
	End     string `json:"end"`
	Message string `json:"message"`
}

// A failure is an error the go command or the tool reported: for a package (Pkg is its ID as
// go vet gives it, Analyzer set when one analyzer failed) or for the whole run (Pkg empty).
type failure struct {
	Pkg, Analyzer, Msg string
}

// A result is what a run of go vet reported.
type result struct {
	findings []finding
	failures []failure
	printed  map[string]bool // the IDs of the packages that printed their output
}

// vet runs go vet with idemlint as its tool and collects what it reports. While it runs, a
// note on progress goes to progress (nil: none) after 15 s, and every 30 s after that.
func vet(self string, o *options, progress io.Writer) (*result, error) {
	var stdout bytes.Buffer
	counter := &packageCounter{w: &stdout}
	var note func(time.Duration)
	if progress != nil {
		note = func(d time.Duration) {
			done := "loading and analysing packages"
			if n := counter.count(); n > 0 {
				done = plural(n, "package", "packages") + " analysed so far"
			}
			fmt.Fprintf(progress, "idemlint: still working (%s): %s; a first run downloads and compiles the dependencies, later runs are cached\n",
				d.Round(time.Second), done)
		}
	}
	stderr, code, err := runGo(o.vetArgs(self, []string{"-json"}, o.patterns), o.gate, counter, note)
	if err != nil {
		return nil, err
	}
	r := &result{printed: make(map[string]bool)}
	if code != 0 {
		r.failures = stderrFailures(stderr)
	} else {
		// Warnings (a C compiler's, say): the run succeeded. But go vet ignores the failure of
		// a tool process that analysed a dependency for its facts: the packages that import it
		// were analysed without them, so the run is a failure all the same.
		var warnings string
		warnings, r.failures = dependencyFailures(stderr, filepath.Base(self))
		fmt.Fprint(os.Stderr, warnings)
	}
	dec := json.NewDecoder(&stdout)
	for {
		var tree map[string]map[string]json.RawMessage
		if err := dec.Decode(&tree); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("reading go vet's JSON: %v", err)
		}
		for pkg, byAnalyzer := range tree {
			r.printed[pkg] = true
			for name, raw := range byAnalyzer {
				var diags []jsonDiagnostic
				if json.Unmarshal(raw, &diags) != nil {
					var e struct{ Error string }
					json.Unmarshal(raw, &e)
					r.failures = append(r.failures, failure{Pkg: pkg, Analyzer: name, Msg: e.Error})
					continue
				}
				for _, d := range diags {
					d.Message = stripName(name, d.Message)
					r.findings = append(r.findings, finding{Pkg: pkg, Analyzer: name, jsonDiagnostic: d})
				}
			}
		}
	}
	if code != 0 && len(r.failures) == 0 {
		r.failures = append(r.failures, failure{Msg: fmt.Sprintf("go vet exited with status %d", code)})
	}
	sortFindings(r.findings)
	return r, nil
}

// vetArgs is the go vet command line that runs this executable as the tool on pkgs.
func (o *options) vetArgs(self string, mode, pkgs []string) []string {
	args := append([]string{"vet", "-vettool=" + self, "-" + standaloneFlag}, mode...)
	if o.tags != "" {
		args = append(args, "-tags="+o.tags)
	}
	if o.procs > 0 {
		args = append(args, "-p="+strconv.Itoa(o.procs))
	}
	args = append(args, o.toolArgs...)
	return append(append(args, "--"), pkgs...)
}

// runGo runs the go command; its stdout goes to stdout, its progress lines ("go: downloading")
// to our stderr as they come, and the rest of its stderr is returned. note, when not nil, is
// called after 15 s and every 30 s after that while the command runs.
func runGo(args []string, gate string, stdout io.Writer, note func(time.Duration)) (stderr string, code int, err error) {
	cmd := exec.Command("go", args...)
	if gate != "" {
		cmd.Env = append(os.Environ(), gateEnv+"="+gate)
	}
	cmd.Stdout = stdout
	pipe, err := cmd.StderrPipe()
	if err != nil {
		return "", 0, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return "", 0, fmt.Errorf("running the go command: %v", err)
	}
	if note != nil {
		done := make(chan struct{})
		defer close(done)
		go func() {
			t := time.NewTimer(15 * time.Second)
			defer t.Stop()
			for {
				select {
				case <-done:
					return
				case <-t.C:
					note(time.Since(start))
					t.Reset(30 * time.Second)
				}
			}
		}()
	}
	var rest strings.Builder
	sc := bufio.NewScanner(pipe)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "go: downloading ") || strings.HasPrefix(line, "go: extracting ") {
			fmt.Fprintln(os.Stderr, line)
			continue
		}
		rest.WriteString(line)
		rest.WriteByte('\n')
	}
	io.Copy(&rest, pipe) // what a line too long for the scanner left
	err = cmd.Wait()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return rest.String(), exit.ExitCode(), nil
	}
	return rest.String(), 0, err
}

// dependencyFailures splits the stderr of a go vet run that succeeded into what it printed
// for packages whose tool process (tool, the executable's name, starts its error lines)
// failed, and the rest (warnings), as it was.
func dependencyFailures(stderr, tool string) (warnings string, failed []failure) {
	var rest strings.Builder
	for _, f := range stderrFailures(stderr) {
		if f.Pkg != "" && slices.ContainsFunc(strings.Split(f.Msg, "\n"), func(l string) bool { return strings.HasPrefix(l, tool+": ") }) {
			failed = append(failed, f)
			continue
		}
		if f.Pkg != "" {
			rest.WriteString("# " + f.Pkg + "\n")
		}
		rest.WriteString(f.Msg + "\n")
	}
	return rest.String(), failed
}

// stderrFailures splits the go command's stderr into errors: a "# ID" line starts the
// output of one package; lines before any are about the whole run.
func stderrFailures(stderr string) []failure {
	var out []failure
	var cur *failure
	for line := range strings.Lines(stderr) {
		line = strings.TrimRight(line, "\n")
		if pkg, ok := strings.CutPrefix(line, "# "); ok {
			out = append(out, failure{Pkg: pkg})
			cur = &out[len(out)-1]
			continue
		}
		if cur == nil {
			if strings.TrimSpace(line) != "" {
				out = append(out, failure{Msg: line})
			}
			continue
		}
		cur.Msg += line + "\n"
	}
	for i := range out {
		out[i].Msg = strings.TrimRight(out[i].Msg, "\n")
	}
	return slices.DeleteFunc(out, func(f failure) bool { return f.Msg == "" })
}

// A position is a parsed "file:line:col".
type position struct {
	file      string
	line, col int
}

func parsePosn(s string) position {
	p := position{file: s}
	if i := strings.LastIndexByte(s, ':'); i >= 0 {
		if j := strings.LastIndexByte(s[:i], ':'); j >= 0 {
			line, err1 := strconv.Atoi(s[j+1 : i])
			col, err2 := strconv.Atoi(s[i+1:])
			if err1 == nil && err2 == nil {
				return position{s[:j], line, col}
			}
		}
	}
	return p
}

func sortFindings(fs []finding) {
	slices.SortStableFunc(fs, func(a, b finding) int {
		pa, pb := parsePosn(a.Posn), parsePosn(b.Posn)
		return cmp.Or(cmp.Compare(pa.file, pb.file), cmp.Compare(pa.line, pb.line), cmp.Compare(pa.col, pb.col),
			cmp.Compare(a.Analyzer, b.Analyzer), cmp.Compare(a.Message, b.Message))
	})
}

// relative returns file relative to the working directory when it lies below it, as the go
// command prints paths.
func relative(file string) string {
	wd, err := os.Getwd()
	if err != nil {
		return file
	}
	if rel, err := filepath.Rel(wd, file); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return file
}

// standalone runs the standalone driver and returns its exit code.
func standalone(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "help":
		return help(stdout, stderr, args[1:])
	case "map":
		return mapCommand(args[1:], stdout, stderr)
	}
	o, err := parseArgs(args)
	if err == errHelp {
		usage(stdout)
		return exitClean
	}
	if err != nil {
		fmt.Fprintf(stderr, "idemlint: %v\nRun 'idemlint help' for usage.\n", err)
		return exitUsage
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "idemlint: %v\n", err)
		return exitErrors
	}
	if o.gate, err = os.MkdirTemp("", "idemlint-gate-"); err == nil {
		defer os.RemoveAll(o.gate)
	}
	var progress io.Writer
	if o.format == "text" {
		progress = stderr
	}
	listed := listRoots(o)
	r, err := vet(self, o, progress)
	if err != nil {
		fmt.Fprintf(stderr, "idemlint: %v\n", err)
		return exitErrors
	}
	roots := <-listed
	r.keepRoots(roots)
	shown, left := r.findings, r.findings
	if o.fix && len(r.failures) == 0 {
		left, err = fix(self, o, r.findings, stdout, stderr)
		if err != nil {
			r.failures = append(r.failures, failure{Msg: err.Error()})
		}
		shown = left
		if o.diff {
			left = r.findings // nothing was changed
		}
	}
	if err := write(o, r.failures, shown, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "idemlint: %v\n", err)
		return exitErrors
	}
	if o.format == "text" {
		fmt.Fprintln(stderr, summary(r.failures, left, o.fix && !o.diff, roots.count()))
	}
	switch {
	case len(r.failures) > 0:
		return exitErrors
	case len(left) > 0:
		return exitFindings
	}
	return exitClean
}

// fix applies (or, with -diff, prints) the first suggested fix of each finding, through
// go vet -fix on the packages that have one, prints a summary to stderr, and returns the
// findings left without an automatic fix.
func fix(self string, o *options, findings []finding, stdout, stderr io.Writer) ([]finding, error) {
	var left []finding
	var dirs, files []string
	fixes := 0
	for _, f := range findings {
		if len(f.SuggestedFixes) == 0 {
			left = append(left, f)
			continue
		}
		fixes++
		dirs = append(dirs, filepath.Dir(parsePosn(f.Posn).file))
		for _, e := range f.SuggestedFixes[0].Edits {
			files = append(files, e.Filename)
		}
	}
	slices.Sort(dirs)
	slices.Sort(files)
	dirs, files = slices.Compact(dirs), slices.Compact(files)
	if fixes > 0 {
		mode := []string{"-fix"}
		out := stdout
		var diff bytes.Buffer
		if o.diff {
			mode = append(mode, "-diff")
			out = &diff
		}
		errs, code, err := runGo(o.vetArgs(self, mode, dirs), o.gate, out, nil)
		if err != nil {
			return left, err
		}
		// With -diff, go vet exits 1 when it printed a diff.
		if code != 0 && !(o.diff && code == 1 && strings.TrimSpace(errs) == "") {
			return left, fmt.Errorf("applying fixes: %s", strings.TrimSpace(errs))
		}
		if o.diff {
			if files, err = writePatch(stdout, diff.String(), stderr); err != nil {
				return left, err
			}
		}
	}
	summary := fmt.Sprintf("idemlint: applied %s to %s", plural(fixes, "fix", "fixes"), plural(len(files), "file", "files"))
	if o.diff {
		summary = fmt.Sprintf("idemlint: printed %s to %s as a diff, not applied", plural(fixes, "fix", "fixes"), plural(len(files), "file", "files"))
	}
	if fixes == 0 {
		summary = "idemlint: no finding has an automatic fix"
	}
	switch {
	case len(left) == 0:
		summary += "; no findings left without an automatic fix"
	case fixes == 0:
		summary += ":"
	default:
		summary += fmt.Sprintf("; %s left without an automatic fix:", plural(len(left), "finding", "findings"))
	}
	fmt.Fprintln(stderr, summary)
	return left, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// A packageCounter passes go vet's JSON on and counts the packages it has reported: go vet
// prints one JSON object per package, "{}" when there is nothing to say, each ending in a
// line "}" of its own.
type packageCounter struct {
	w    io.Writer
	mu   sync.Mutex
	n    int
	line []byte // the current line, up to its first 2 bytes
	long bool   // the current line is longer than that
}

func (c *packageCounter) Write(p []byte) (int, error) {
	c.mu.Lock()
	for _, b := range p {
		if b == '\n' {
			if !c.long && (string(c.line) == "}" || string(c.line) == "{}") {
				c.n++
			}
			c.line, c.long = c.line[:0], false
			continue
		}
		if len(c.line) < 2 {
			c.line = append(c.line, b)
		} else {
			c.long = true
		}
	}
	c.mu.Unlock()
	return c.w.Write(p)
}

func (c *packageCounter) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// The roots of a run are the packages the patterns name, and their external tests ("p_test"),
// by import path: go vet names a package with its in-package tests as it names the package.
// go vet also prints what it printed before for a dependency, and under the driver every
// package of the module reports (see ownFacts): only the roots' output is kept.
type roots struct {
	packages int             // the packages the patterns name
	paths    map[string]bool // nil when unknown: every package is kept
}

// count is the number of packages the patterns name, -1 when unknown.
func (r roots) count() int {
	if r.paths == nil {
		return -1
	}
	return r.packages
}

// listRoots lists the roots of the patterns (go list -find: no dependencies loaded), next to
// go vet.
func listRoots(o *options) <-chan roots {
	ch := make(chan roots, 1)
	go func() {
		args := []string{"list", "-find", "-f", "{{.ImportPath}}"}
		if o.tags != "" {
			args = append(args, "-tags="+o.tags)
		}
		out, err := exec.Command("go", append(append(args, "--"), o.patterns...)...).Output()
		if err != nil {
			ch <- roots{}
			return
		}
		r := roots{paths: make(map[string]bool)}
		for _, p := range strings.Fields(string(out)) {
			r.packages++
			r.paths[p], r.paths[p+"_test"] = true, true
		}
		ch <- r
	}()
	return ch
}

// keepRoots keeps the findings and analyzer failures of the roots, each package's once: those
// of the root's own run when it printed its ID, or else (its result was replayed from a run
// for a dependent's facts) those of its runs for facts, which ownFacts made report.
func (r *result) keepRoots(roots roots) {
	keep := func(id string) (string, bool) {
		path, _ := strings.CutSuffix(id, ownSuffix)
		if roots.paths != nil && !roots.paths[path] {
			return "", false
		}
		return path, id == path || !r.printed[path]
	}
	seen := make(map[string]bool)
	r.findings = slices.DeleteFunc(r.findings, func(f finding) bool {
		path, ok := keep(f.Pkg)
		if !ok {
			return true
		}
		data, _ := json.Marshal(f.jsonDiagnostic)
		k := path + "\x00" + f.Analyzer + "\x00" + string(data)
		if seen[k] {
			return true
		}
		seen[k] = true
		return false
	})
	for i := range r.findings {
		r.findings[i].Pkg, _ = strings.CutSuffix(r.findings[i].Pkg, ownSuffix)
	}
	r.failures = slices.DeleteFunc(r.failures, func(f failure) bool {
		if f.Analyzer == "" {
			return false // the go command's
		}
		path, ok := keep(f.Pkg)
		if !ok {
			return true
		}
		k := path + "\x00" + f.Analyzer + "\x00" + f.Msg
		if seen[k] {
			return true
		}
		seen[k] = true
		return false
	})
	for i := range r.failures {
		r.failures[i].Pkg, _ = strings.CutSuffix(r.failures[i].Pkg, ownSuffix)
	}
	r.failures = causesOnly(r.failures)
}

// causesOnly drops a check's "failed prerequisites: retryscope" for a package when each model
// it names failed there with an error of its own, which says what went wrong.
func causesOnly(failures []failure) []failure {
	failed := make(map[[2]string]bool)
	for _, f := range failures {
		failed[[2]string{f.Pkg, f.Analyzer}] = true
	}
	return slices.DeleteFunc(failures, func(f failure) bool {
		names, ok := strings.CutPrefix(f.Msg, "failed prerequisites: ")
		if !ok || f.Analyzer == "" {
			return false
		}
		for _, n := range strings.Split(names, ", ") {
			if !failed[[2]string{f.Pkg, n}] {
				return false
			}
		}
		return true
	})
}

// summary is the line that ends a run in text mode: "no findings in 37 packages", "21 findings
// in 5 of 37 packages", and the packages that did not load; after -fix, "findings left" counts
// those without an automatic fix. packages is -1 when unknown.
func summary(failures []failure, findings []finding, left bool, packages int) string {
	pkgs := make(map[string]bool)
	for _, f := range findings {
		pkgs[packagePath(f.Pkg)] = true
	}
	broken := make(map[string]bool)
	for _, f := range failures {
		if f.Pkg != "" {
			broken[packagePath(f.Pkg)] = true
		}
	}
	one, many := "finding", "findings"
	if left {
		one, many = "finding left", "findings left"
	}
	var s string
	switch {
	case len(findings) == 0 && packages >= 0:
		s = fmt.Sprintf("no %s in %s", many, plural(packages, "package", "packages"))
	case len(findings) == 0:
		s = "no " + many
	case packages >= len(pkgs):
		s = fmt.Sprintf("%s in %d of %s", plural(len(findings), one, many), len(pkgs), plural(packages, "package", "packages"))
	default:
		s = fmt.Sprintf("%s in %s", plural(len(findings), one, many), plural(len(pkgs), "package", "packages"))
	}
	switch {
	case len(broken) > 0:
		s += fmt.Sprintf("; %s did not load or type-check", plural(len(broken), "package", "packages"))
	case len(failures) > 0:
		s += "; the run failed"
	}
	return "idemlint: " + s
}

// packagePath is the package of a go vet package ID: "p [p.test]" and "p_test [p.test]" are p.
func packagePath(id string) string {
	id, _, _ = strings.Cut(id, " ")
	return strings.TrimSuffix(id, "_test")
}
