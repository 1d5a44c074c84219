package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/idemlint/idemlint/analyzers/depmap"
	"github.com/idemlint/idemlint/internal/mappage"
)

// The map command runs the checks with the depmap analyzer's report on, through the same go vet
// run as the checks (so facts flow between packages and results are cached), and draws what it
// reports: every outbound dependency, the paths that reach it, their retry layers, worst cases
// and findings.

const mapUsage = `Usage: idemlint map [-format=html|json] [-o FILE] [-tags=LIST] [-p=N] packages

Writes a map of the packages' outbound dependencies: for each remote service the packages
call (named by its host, SDK and service, gRPC service or SQL package), the paths from entry
points (main, HTTP handlers, framework activities and handlers, exported functions) to the
calls, the retry layers on each path (hand loops, retry libraries, self-retrying clients,
framework redeliveries) with their attempts, waits and deadlines, whether the request is keyed,
the worst case in calls per request (the product of the layers' attempts, as nestedretry
counts it), the timeout of each attempt, and the findings of the checks on the path.

  -format=html   a self-contained page (inline CSS and SVG, no network needed to open it)
  -format=json   the same data, for tools
  -o FILE        write to FILE instead of stdout
  -tags, -p      as for idemlint

See docs/map.md.
`

// mapOptions are the map command's flags.
type mapOptions struct {
	format, out string
	vet         options
}

func parseMapArgs(args []string) (*mapOptions, error) {
	o := &mapOptions{vet: options{enable: make(map[string]*tristate)}}
	fs := flag.NewFlagSet("idemlint map", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.format, "format", "html", "")
	fs.StringVar(&o.out, "o", "", "")
	fs.StringVar(&o.vet.tags, "tags", "", "")
	fs.IntVar(&o.vet.procs, "p", 0, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, errHelp
		}
		return nil, err
	}
	if o.format != "html" && o.format != "json" {
		return nil, fmt.Errorf("-format=%s: want html or json", o.format)
	}
	if o.vet.procs < 0 {
		return nil, fmt.Errorf("-p=%d: want a number of packages, at least 1", o.vet.procs)
	}
	o.vet.patterns = fs.Args()
	if len(o.vet.patterns) == 0 {
		return nil, errors.New("no packages named (try ./...)")
	}
	for _, p := range o.vet.patterns {
		if strings.HasPrefix(p, "-") {
			return nil, fmt.Errorf("flag %s after the packages: flags go before the packages", p)
		}
	}
	for _, a := range checks() {
		o.vet.enable[a.Name] = new(tristate)
	}
	o.vet.toolArgs = []string{"-" + depmap.Analyzer.Name + ".report"}
	return o, nil
}

// mapCommand runs "idemlint map" and returns its exit code: 0 when the map was written, even
// with findings on it.
func mapCommand(args []string, stdout, stderr io.Writer) int {
	o, err := parseMapArgs(args)
	if err == errHelp {
		fmt.Fprint(stdout, mapUsage)
		return exitClean
	}
	if err != nil {
		fmt.Fprintf(stderr, "idemlint map: %v\n%s", err, mapUsage)
		return exitUsage
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "idemlint map: %v\n", err)
		return exitErrors
	}
	if o.vet.gate, err = os.MkdirTemp("", "idemlint-gate-"); err == nil {
		defer os.RemoveAll(o.vet.gate)
	}
	r, err := vet(self, &o.vet, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "idemlint map: %v\n", err)
		return exitErrors
	}
	if len(r.failures) > 0 {
		writeText(stderr, r.failures, nil)
		return exitErrors
	}
	m, err := buildMap(o.vet.patterns, r.findings)
	if err != nil {
		fmt.Fprintf(stderr, "idemlint map: %v\n", err)
		return exitErrors
	}
	var buf bytes.Buffer
	if o.format == "json" {
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", "\t")
		err = enc.Encode(m)
	} else {
		err = mappage.Write(&buf, m)
	}
	if err == nil && o.out != "" {
		err = os.WriteFile(o.out, buf.Bytes(), 0o644)
	} else if err == nil {
		_, err = stdout.Write(buf.Bytes())
	}
	if err != nil {
		fmt.Fprintf(stderr, "idemlint map: %v\n", err)
		return exitErrors
	}
	if o.out != "" {
		fmt.Fprintf(stderr, "idemlint map: %s: %s\n", o.out, plural(len(m.Dependencies), "dependency", "dependencies"))
	}
	return exitClean
}

// buildMap reads the depmap analyzer's reports among the findings and builds the map, with
// the checks' findings on the paths and every position relative to the working directory.
func buildMap(patterns []string, findings []finding) (*mappage.Map, error) {
	var reached []mappage.Reached
	var others []mappage.Finding
	urls := make(map[string]string)
	for _, a := range all() {
		urls[a.Name] = a.URL
	}
	for _, f := range findings {
		if f.Analyzer == depmap.Analyzer.Name {
			var rs []mappage.Reached
			if err := json.Unmarshal([]byte(strings.TrimPrefix(f.Message, depmap.Prefix)), &rs); err != nil {
				return nil, fmt.Errorf("reading the map's data at %s: %v", f.Posn, err)
			}
			reached = append(reached, rs...)
			continue
		}
		mf := mappage.Finding{Check: f.Analyzer, Posn: f.Posn, Message: f.Message, URL: urls[f.Analyzer]}
		for _, rel := range f.Related {
			mf.Related = append(mf.Related, rel.Posn)
		}
		others = append(others, mf)
	}
	m := mappage.Build(slices.Clone(patterns), reached, others)
	modcache := goEnv("GOMODCACHE")
	m.Posns(func(p string) string {
		if p == "" {
			return ""
		}
		file := parsePosn(p).file
		short := relative(file)
		if rest, ok := strings.CutPrefix(file, modcache+string(filepath.Separator)); ok && modcache != "" && short == file {
			short = filepath.ToSlash(rest) // a dependency's file: module@version/path
		}
		return strings.Replace(p, file, short, 1)
	})
	return m, nil
}

// goEnv returns the go command's value of an environment variable, or "".
func goEnv(name string) string {
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
