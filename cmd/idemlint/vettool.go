package main

import (
	"encoding/json"
	"flag"
	"go/build"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/idemlint/idemlint/analyzers"
	"github.com/idemlint/idemlint/analyzers/directive"
)

// isVettool reports whether the go command runs idemlint as its vet or fix tool: with a
// package's .cfg file, or asking for the tool's flags.
func isVettool(args []string) bool {
	if len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg") {
		return true
	}
	return slices.Contains(args, "-flags") || slices.Contains(args, "--flags")
}

// vettool analyses one package for the go command (unitchecker's protocol) and exits. It
// chooses what to run before unitchecker does:
//
//   - for a dependency analysed only for its facts (VetxOnly), only the analyzers that produce
//     facts: unitchecker would also run the checks there and drop what they report;
//   - otherwise the enabled checks, each reporting its name at the start of its messages (go
//     vet prints messages without the analyzer), and the models whose -MODEL.report debug
//     flag is set.
//
// Flags of the analyzers it leaves out are still accepted, so that the go command can pass
// the same flags to every package.
//
// Under the standalone driver (-standalone), a package of the module being analysed reports
// its findings even when it is analysed only for its facts: see ownFacts.
func vettool(args []string) {
	checks, models := checks(), analyzers.Models()
	var roots []*analysis.Analyzer
	enabled, debug, picked, parsed := vetFlags(args, checks, models)
	if parsed && standaloneRun(args) {
		args = ownFacts(args)
	}
	switch {
	case !parsed:
		// Let unitchecker report the bad flag.
		roots = checks
	case vetxOnly(args):
		roots = factProducers(append(enabled, debug...))
	default:
		for _, a := range enabled {
			roots = append(roots, withName(a))
		}
		roots = append(roots, debug...)
		// The models the checks need, as roots too: a model that fails (a panic the guard
		// turned into an error) is reported with its own error, not only as the checks'
		// "failed prerequisites". They report nothing else unless their -MODEL.report is set.
		for _, m := range required(enabled, models) {
			if named(roots, m.Name) == nil {
				roots = append(roots, m)
				debug = append(debug, m)
			}
		}
		if picked {
			// Checks were chosen with -NAME: unitchecker would drop the models and the
			// directive analyzer as not chosen.
			for _, a := range append(debug, directive.Analyzer) {
				if named(roots, a.Name) != nil {
					args = append([]string{"-" + a.Name}, args...)
				}
			}
		}
	}
	if parsed && strings.HasSuffix(args[len(args)-1], ".cfg") {
		enterGate(args[len(args)-1])
	}
	os.Args = append(os.Args[:1], args...)
	flag.Bool(standaloneFlag, false, "set by the standalone driver: a package of the analysed module analysed for its facts reports its findings too")
	for _, a := range all() {
		if named(roots, a.Name) != nil {
			continue // unitchecker registers its flags
		}
		if slices.Contains(checks, a) {
			flag.Var(&ignored{bool: true}, a.Name, "enable "+a.Name+" analysis")
		}
		a.Flags.VisitAll(func(f *flag.Flag) {
			flag.Var(f.Value, a.Name+"."+f.Name, f.Usage)
		})
	}
	unitchecker.Main(roots...)
}

// vetFlags reads the command line as unitchecker will, for the checks it enables (all,
// those set with -NAME, or all but those set with -NAME=false; the directive analyzer unless
// -directive=false) and the models whose report flag is set. named is whether a -NAME flag
// chose checks; parsed is false when the command line does not parse.
func vetFlags(args []string, checks, models []*analysis.Analyzer) (enabled, debug []*analysis.Analyzer, named, parsed bool) {
	fs := flag.NewFlagSet("idemlint", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	for _, name := range []string{"flags", "json", "fix", "diff", "source", "v", "all", standaloneFlag} {
		fs.Bool(name, false, "")
	}
	fs.String("V", "", "")
	fs.String("c", "", "")
	fs.String("tags", "", "")
	enable := make(map[string]*tristate)
	report := make(map[string]*bool)
	for _, a := range all() {
		if slices.Contains(checks, a) {
			enable[a.Name] = new(tristate)
			fs.Var(enable[a.Name], a.Name, "")
		}
		a.Flags.VisitAll(func(f *flag.Flag) {
			if f.Name == "report" && isBool(f) {
				report[a.Name] = fs.Bool(a.Name+"."+f.Name, false, "")
				return
			}
			fs.Var(&ignored{bool: isBool(f)}, a.Name+"."+f.Name, "")
		})
	}
	if fs.Parse(args) != nil {
		return nil, nil, false, false
	}
	state := func(a *analysis.Analyzer) tristate { return *enable[a.Name] }
	enabled = chosen(checks, state)
	for _, m := range models {
		if r := report[m.Name]; r != nil && *r {
			debug = append(debug, m)
		}
	}
	return enabled, debug, anyOn(checks, state), true
}

// vetxOnly reports whether the .cfg file asks for facts only.
func vetxOnly(args []string) bool {
	if len(args) == 0 || !strings.HasSuffix(args[len(args)-1], ".cfg") {
		return false
	}
	data, err := os.ReadFile(args[len(args)-1])
	if err != nil {
		return false // unitchecker reports it
	}
	var cfg struct{ VetxOnly bool }
	return json.Unmarshal(data, &cfg) == nil && cfg.VetxOnly
}

// factProducers returns the analyzers, among as and those they require, that export facts.
func factProducers(as []*analysis.Analyzer) []*analysis.Analyzer {
	var out []*analysis.Analyzer
	seen := make(map[*analysis.Analyzer]bool)
	var visit func(a *analysis.Analyzer)
	visit = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		if len(a.FactTypes) > 0 {
			out = append(out, a)
		}
		for _, r := range a.Requires {
			visit(r)
		}
	}
	for _, a := range as {
		visit(a)
	}
	return out
}

// required returns the models among models that the analyzers as require, directly or not.
func required(as, models []*analysis.Analyzer) []*analysis.Analyzer {
	seen := make(map[*analysis.Analyzer]bool)
	var visit func(a *analysis.Analyzer)
	visit = func(a *analysis.Analyzer) {
		for _, r := range a.Requires {
			if !seen[r] {
				seen[r] = true
				visit(r)
			}
		}
	}
	for _, a := range as {
		visit(a)
	}
	var out []*analysis.Analyzer
	for _, m := range models {
		if seen[m] {
			out = append(out, m)
		}
	}
	return out
}

// withName returns a copy of the check a whose diagnostics start with its name.
func withName(a *analysis.Analyzer) *analysis.Analyzer {
	w := *a
	w.Run = func(pass *analysis.Pass) (any, error) {
		report := pass.Report
		pass.Report = func(d analysis.Diagnostic) {
			d.Message = a.Name + ": " + d.Message
			report(d)
		}
		return a.Run(pass)
	}
	return &w
}

// stripName undoes withName on a message that the go command relayed.
func stripName(analyzer, message string) string {
	return strings.TrimPrefix(message, analyzer+": ")
}

func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// A tristate is an analyzer's -NAME flag: unset, on or off.
type tristate int

const (
	unset tristate = iota
	on
	off
)

func (t *tristate) String() string {
	switch *t {
	case on:
		return "true"
	case off:
		return "false"
	}
	return ""
}

func (t *tristate) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	*t = map[bool]tristate{true: on, false: off}[b]
	return nil
}

func (t *tristate) IsBoolFlag() bool { return true }

// ignored accepts a flag's value and does nothing with it.
type ignored struct{ bool bool }

func (*ignored) String() string     { return "" }
func (*ignored) Set(string) error   { return nil }
func (i *ignored) IsBoolFlag() bool { return i.bool }

// standaloneFlag is the flag the standalone driver passes to every tool process of its go vet
// runs. Being a flag, it is part of the go command's cache key: what a package's process
// printed under the driver is never replayed to go vet -vettool, nor the other way round.
const standaloneFlag = "standalone"

// ownSuffix marks the output of a package that ownFacts made report although the go command
// asked only for its facts.
const ownSuffix = " (for facts)"

// standaloneRun reports whether the command line is the standalone driver's JSON analysis
// (-standalone -json, not -fix).
func standaloneRun(args []string) bool {
	set := map[string]bool{}
	for _, a := range args {
		name, value, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && value != "false" {
			set[name] = true
		}
	}
	return set[standaloneFlag] && set["json"] && !set["fix"]
}

// ownFacts prepares the analysis of a package of the analysed module for the standalone
// driver: it returns args with the .cfg file replaced by a copy that asks for the package's
// findings even when the go command asked only for its facts (the package's ID then ends in
// ownSuffix), and it starts the package's output with its ID (a JSON object with no analyzer).
//
// The go command (1.26, cmd/go/internal/work's vet action) caches a package's vet output under
// a key that does not say whether the package was a root, analysed for its findings, or a
// dependency, analysed only for its facts. So after "go vet ./b", where package a is b's
// dependency, "go vet ./..." replays a's empty output and a's findings are lost; after
// "go vet ./...", "go vet ./b" prints a's findings. Plain go vet does the same. Under the
// driver, what is cached for a package of the module is always its findings, and every output
// names its package and role, so that the driver can keep, for each package it was asked
// about, the output of the root or, when that was replayed from a dependency's run, of the
// package alone (see keepRoots). Packages of other modules and of the standard library are
// never the driver's roots (they are not in the analysed module's directory), so they stay
// facts only, which keeps a first run as cheap as before.
func ownFacts(args []string) []string {
	file := args[len(args)-1]
	if !strings.HasSuffix(file, ".cfg") {
		return args
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return args
	}
	var cfg map[string]any
	if json.Unmarshal(data, &cfg) != nil {
		return args
	}
	path, _ := cfg["ModulePath"].(string)
	version, _ := cfg["ModuleVersion"].(string)
	dir, _ := cfg["Dir"].(string)
	id, _ := cfg["ID"].(string)
	stdout, _ := cfg["Stdout"].(string)
	if version != "" || (path == "" && inGOROOT(dir)) || id == "" || stdout == "" {
		return args // another module's package, or the standard library's
	}
	if cfg["VetxOnly"] == true {
		cfg["VetxOnly"] = false
		id += ownSuffix
		cfg["ID"] = id
	}
	cfg["Stdout"] = ""
	out, err := json.Marshal(cfg)
	if err != nil {
		return args
	}
	own := strings.TrimSuffix(file, ".cfg") + ".own.cfg"
	if os.WriteFile(own, out, 0o644) != nil {
		return args
	}
	f, err := os.Create(stdout)
	if err != nil {
		return args
	}
	mark, _ := json.Marshal(map[string]map[string]any{id: {}})
	if _, err := f.Write(append(mark, '\n')); err != nil {
		f.Close()
		return args
	}
	os.Stdout = f // unitchecker prints the findings after the mark
	return append(slices.Clone(args[:len(args)-1]), own)
}

// inGOROOT reports whether dir is a directory of the standard library's source.
func inGOROOT(dir string) bool {
	root := build.Default.GOROOT
	if root == "" || dir == "" {
		return dir == ""
	}
	rel, err := filepath.Rel(filepath.Join(root, "src"), dir)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
