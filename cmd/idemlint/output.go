package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// write prints the failures and findings in the chosen format (text to stderr, the others to
// stdout) and, with -sarif FILE, also as SARIF to FILE.
func write(o *options, failures []failure, findings []finding, stdout, stderr io.Writer) error {
	if o.sarifFile != "" {
		f, err := os.Create(o.sarifFile)
		if err != nil {
			return err
		}
		if err := writeSARIF(f, failures, findings); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	switch o.format {
	case "json":
		for _, f := range failures {
			if f.Pkg == "" {
				fmt.Fprintln(stderr, f.Msg) // no package to hold it
			}
		}
		return writeJSON(stdout, failures, findings, o.enabledChecks())
	case "sarif":
		return writeSARIF(stdout, failures, findings)
	case "github":
		writeGitHub(stdout, failures, findings)
		return nil
	}
	writeText(stderr, failures, findings)
	return nil
}

// writeText prints failures as go vet does and findings as "file:line:col: analyzer: message",
// each related position on a line of its own below.
func writeText(w io.Writer, failures []failure, findings []finding) {
	for _, f := range failures {
		switch {
		case f.Pkg == "":
			fmt.Fprintln(w, f.Msg)
		case f.Analyzer != "":
			fmt.Fprintf(w, "# %s\n%s: %s\n", f.Pkg, f.Analyzer, f.Msg)
		default:
			fmt.Fprintf(w, "# %s\n%s\n", f.Pkg, f.Msg)
		}
	}
	for _, f := range findings {
		fmt.Fprintf(w, "%s: %s: %s\n", shortPosn(f.Posn), f.Analyzer, f.Message)
		for _, r := range f.Related {
			fmt.Fprintf(w, "%s: \t%s\n", shortPosn(r.Posn), r.Message)
		}
	}
}

func shortPosn(posn string) string {
	p := parsePosn(posn)
	if p.line == 0 {
		return posn
	}
	return fmt.Sprintf("%s:%d:%d", relative(p.file), p.line, p.col)
}

// writeJSON prints go vet's JSON shape: package ID -> analyzer -> diagnostics, or an error
// object. A package that did not load or type-check has its error under each enabled check.
func writeJSON(w io.Writer, failures []failure, findings []finding, checks []string) error {
	tree := make(map[string]map[string]any)
	put := func(pkg, analyzer string, v any) {
		if tree[pkg] == nil {
			tree[pkg] = make(map[string]any)
		}
		tree[pkg][analyzer] = v
	}
	for _, f := range failures {
		type jsonError struct {
			Err string `json:"error"`
		}
		switch {
		case f.Pkg == "":
		case f.Analyzer != "":
			put(f.Pkg, f.Analyzer, jsonError{f.Msg})
		default:
			for _, c := range checks {
				put(f.Pkg, c, jsonError{f.Msg})
			}
		}
	}
	for _, f := range findings {
		diags, _ := tree[f.Pkg][f.Analyzer].([]jsonDiagnostic)
		put(f.Pkg, f.Analyzer, append(diags, f.jsonDiagnostic))
	}
	data, err := json.MarshalIndent(tree, "", "\t")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}

// writeGitHub prints GitHub Actions workflow commands, which the runner shows as annotations
// on the lines of the pull request.
func writeGitHub(w io.Writer, failures []failure, findings []finding) {
	for _, f := range failures {
		msg := f.Msg
		if f.Pkg != "" {
			msg = f.Pkg + ": " + msg
		}
		fmt.Fprintf(w, "::error title=idemlint::%s\n", escapeData(msg))
	}
	for _, f := range findings {
		p, e := parsePosn(f.Posn), parsePosn(f.End)
		props := fmt.Sprintf("file=%s,line=%d,col=%d", escapeProperty(relative(p.file)), p.line, p.col)
		if e.file == p.file && e.line > 0 {
			props += fmt.Sprintf(",endLine=%d,endColumn=%d", e.line, e.col)
		}
		props += ",title=" + escapeProperty("idemlint "+f.Analyzer)
		fmt.Fprintf(w, "::warning %s::%s\n", props, escapeData(f.Message))
	}
}

// escapeData and escapeProperty escape a workflow command's message and property values.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
