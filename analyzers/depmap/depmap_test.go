package depmap_test

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/idemlint/idemlint/analyzers"
	"github.com/idemlint/idemlint/analyzers/depmap"
	"github.com/idemlint/idemlint/internal/mappage"
)

var update = flag.Bool("update", false, "rewrite the golden map")

// TestFacts checks which functions reach remote calls (the facts other packages read).
func TestFacts(t *testing.T) {
	testdata, _ := filepath.Abs("../../testdata")
	analysistest.Run(t, testdata, depmap.Analyzer, "depmap/shop", "depmap/shapes")
}

// TestGolden runs the map's analyzer and the checks on a service with nested layers, a keyed
// and an unkeyed path, a framework's redelivery and a self-retrying client, builds the map as
// idemlint map does, and compares its JSON with map.golden.json. The figure of the path that
// nestedretry reports equals the amplification in nestedretry's message.
func TestGolden(t *testing.T) {
	testdata, err := filepath.Abs("../../testdata")
	require.NoError(t, err)
	src := filepath.Join(testdata, "src")
	cfg := &packages.Config{
		Mode:  packages.LoadAllSyntax,
		Tests: true, // as go vet: a test's calls do not hide an entry point
		Dir:   src,
		Env:   append(os.Environ(), "GOPATH="+testdata, "GO111MODULE=off", "GOPROXY=off", "GOWORK=off", "GOFLAGS="),
	}
	pkgs, err := packages.Load(cfg, "depmap/shop", "depmap/app", "depmap/shapes")
	require.NoError(t, err)
	require.NoError(t, depmap.Analyzer.Flags.Set("report", "true"))
	defer depmap.Analyzer.Flags.Set("report", "false")
	roots := append([]*analysis.Analyzer{depmap.Analyzer}, analyzers.Checks()...)
	g, err := checker.Analyze(roots, pkgs, nil)
	require.NoError(t, err)

	var reached []mappage.Reached
	var findings []mappage.Finding
	for act := range g.All() {
		require.NoError(t, act.Err, act.String())
		if !act.IsRoot {
			continue
		}
		for _, d := range act.Diagnostics {
			posn := act.Package.Fset.Position(d.Pos).String()
			if act.Analyzer == depmap.Analyzer {
				var rs []mappage.Reached
				require.NoError(t, json.Unmarshal([]byte(strings.TrimPrefix(d.Message, depmap.Prefix)), &rs))
				reached = append(reached, rs...)
				continue
			}
			f := mappage.Finding{Check: act.Analyzer.Name, Posn: posn, Message: d.Message, URL: act.Analyzer.URL}
			for _, r := range d.Related {
				f.Related = append(f.Related, act.Package.Fset.Position(r.Pos).String())
			}
			findings = append(findings, f)
		}
	}
	m := mappage.Build([]string{"depmap/shop", "depmap/app", "depmap/shapes"}, reached, findings)
	m.Posns(func(p string) string {
		rel, err := filepath.Rel(src, p)
		if err != nil || p == "" {
			return p
		}
		return filepath.ToSlash(rel)
	})
	got, err := json.MarshalIndent(m, "", "\t")
	require.NoError(t, err)
	golden := filepath.Join(src, "depmap", "shop", "map.golden.json")
	if *update {
		require.NoError(t, os.WriteFile(golden, append(got, '\n'), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	require.JSONEq(t, string(want), string(got), "go test ./analyzers/depmap -run TestGolden -update rewrites it")

	// nestedretry's amplification, where it reports, is the map's figure for the path.
	upTo := regexp.MustCompile(`up to (\d+) calls`)
	compared := 0
	for _, d := range m.Dependencies {
		for _, p := range d.Paths {
			for _, f := range p.Findings {
				if f.Check != "nestedretry" {
					continue
				}
				sub := upTo.FindStringSubmatch(f.Message)
				require.NotNil(t, sub, f.Message)
				n, _ := strconv.Atoi(sub[1])
				require.Equal(t, n, p.Worst.N, "%s: %s", f.Posn, f.Message)
				compared++
			}
		}
	}
	require.Positive(t, compared, "no nestedretry finding on a path: the comparison tested nothing")
}
