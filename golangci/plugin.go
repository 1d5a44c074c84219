// Package golangci is idemlint's golangci-lint v2 module plugin.
//
// Build a golangci-lint that includes it with scripts/golangci-build (from the Go module
// proxy, no git clone), or with `golangci-lint custom` and a .custom-gcl.yml that points at a
// checkout of idemlint (the module is not on the proxy yet):
//
//	version: v2.15.0
//	plugins:
//	  - module: github.com/idemlint/idemlint
//	    import: github.com/idemlint/idemlint/golangci
//	    path: ../idemlint
//
// and enable it in .golangci.yml. Settings use the analyzer flags' names, without the dash:
//
//	linters:
//	  enable: [idemlint]
//	  settings:
//	    custom:
//	      idemlint:
//	        type: module
//	        settings:
//	          disable: [keyinloop]                      # analyzers not to run
//	          retryscope.helpers: [example.com/x.Retry:0]
//	          keys.names: [x-dedup-id]
//	          notimeout.default: 10s
//
// Every idemlint diagnostic then appears under the linter "idemlint" ("keyinloop: message
// (idemlint)"), and `golangci-lint run --fix` applies the suggested fixes. Mistakes in
// //idemlint: directives are reported too, as "directive: message"; disable: [directive]
// leaves them out.
//
// The plugin API gives each linter one name for all its diagnostics, which is what
// golangci-lint's SARIF and checkstyle outputs use as the rule. For one rule per check, enable
// each check as a linter of its own instead of "idemlint": every check is also registered
// under its own name, with the same settings (give them once: they are shared), and so is
// "directive", the mistakes in //idemlint: directives:
//
//	linters:
//	  enable: [keyinloop, notimeout, nojitter, nestedretry, unkeyedretry, directive]
//	  settings:
//	    custom:
//	      keyinloop:
//	        type: module
//	        settings:
//	          keys.names: [x-dedup-id]
//	      notimeout:
//	        type: module
//	      nojitter:
//	        type: module
//	      nestedretry:
//	        type: module
//	      unkeyedretry:
//	        type: module
//	      directive:
//	        type: module
//
// golangci-lint shows at most 3 issues with the same message and 50 per linter unless
// issues.max-same-issues and issues.max-issues-per-linter are 0; see docs/golangci-lint.md.
package golangci

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/analyzers"
)

// reporting returns the analyzers that report: the checks, and the directive analyzer, which
// reports mistakes in //idemlint: directives under its own name.
func reporting() []*analysis.Analyzer {
	return analyzers.Reporting()
}

func init() {
	register.Plugin("idemlint", New)
	for _, a := range reporting() {
		register.Plugin(a.Name, func(settings any) (register.LinterPlugin, error) {
			return newPlugin(settings, a.Name)
		})
	}
}

type plugin struct {
	only    string // the one check this linter runs, or "" for all
	disable []string
}

// New applies the settings (see the package documentation) and returns the plugin that runs
// all checks.
func New(settings any) (register.LinterPlugin, error) { return newPlugin(settings, "") }

// newPlugin returns the plugin that runs the check named only, or all checks.
func newPlugin(settings any, only string) (register.LinterPlugin, error) {
	m, err := register.DecodeSettings[map[string]any](settings)
	if err != nil {
		return nil, err
	}
	p := &plugin{only: only}
	flat := make(map[string]any)
	flatten("", m, flat)
	keys := make([]string, 0, len(flat))
	for k := range flat {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := flat[k]
		if k == "disable" {
			if only != "" {
				return nil, fmt.Errorf("%s: disable: this linter runs one check; leave it out of linters.enable instead", only)
			}
			names, err := settingValues(k, v)
			if err != nil {
				return nil, err
			}
			for _, n := range names {
				if !slices.ContainsFunc(reporting(), func(a *analysis.Analyzer) bool { return a.Name == n }) {
					return nil, fmt.Errorf("idemlint: disable: %q is not a check", n)
				}
			}
			p.disable = names
			continue
		}
		if err := setFlag(k, v); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// flatten turns nested settings into dotted names: golangci-lint's configuration reader reads
// "keys.names: [a]" as {keys: {names: [a]}}.
func flatten(prefix string, m map[string]any, out map[string]any) {
	for k, v := range m {
		if prefix != "" {
			k = prefix + "." + k
		}
		if sub, ok := v.(map[string]any); ok {
			flatten(k, sub, out)
			continue
		}
		out[k] = v
	}
}

// setFlag sets the analyzer flag named "analyzer.flag" to v: a string, number or boolean, or
// a list whose elements are set one by one (list flags add each).
func setFlag(name string, v any) error {
	aname, fname, ok := strings.Cut(name, ".")
	a := find(aname)
	if !ok || a == nil || a.Flags.Lookup(fname) == nil {
		return fmt.Errorf("idemlint: unknown setting %q (want analyzer.flag, as in idemlint help)", name)
	}
	values, err := settingValues(name, v)
	if err != nil {
		return err
	}
	for _, s := range values {
		if err := a.Flags.Set(fname, s); err != nil {
			return fmt.Errorf("idemlint: %s: %v", name, err)
		}
	}
	return nil
}

// settingValues turns a setting's value into strings.
func settingValues(name string, v any) ([]string, error) {
	switch v := v.(type) {
	case []any:
		var out []string
		for _, e := range v {
			s, err := settingValues(name, e)
			if err != nil {
				return nil, err
			}
			out = append(out, s...)
		}
		return out, nil
	case string:
		return []string{v}, nil
	case bool, float64:
		return []string{fmt.Sprint(v)}, nil
	}
	return nil, fmt.Errorf("idemlint: %s: unsupported value %v", name, v)
}

func find(name string) *analysis.Analyzer {
	for _, a := range append(reporting(), analyzers.Models()...) {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// BuildAnalyzers returns the checks that are not disabled, and the directive analyzer unless
// it is disabled.
func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	var out []*analysis.Analyzer
	for _, a := range reporting() {
		if p.only == "" && !slices.Contains(p.disable, a.Name) || p.only == a.Name {
			out = append(out, withoutRelated[a])
		}
	}
	return out, nil
}

// withoutRelated holds each check as golangci-lint gets it: golangci-lint turns every
// related position of a diagnostic into an issue of its own ("keyinloop(related
// information): retry callback"), which would triple the findings, so the plugin reports the
// diagnostic alone (go vet, gopls and idemlint show the related places).
var withoutRelated = func() map[*analysis.Analyzer]*analysis.Analyzer {
	m := make(map[*analysis.Analyzer]*analysis.Analyzer)
	for _, a := range reporting() {
		w := *a
		run := a.Run
		w.Run = func(pass *analysis.Pass) (any, error) {
			p := *pass
			p.Report = func(d analysis.Diagnostic) {
				d.Related = nil
				pass.Report(d)
			}
			return run(&p)
		}
		m[a] = &w
	}
	return m
}()

// GetLoadMode asks for type information: the analyzers build SSA.
func (p *plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
