package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// SARIF 2.1.0, the parts idemlint fills in.

const sarifSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                        `json:"tool"`
	OriginalURIBaseIDs map[string]sarifArtifactLocation `json:"originalUriBaseIds,omitempty"`
	Invocations        []sarifInvocation                `json:"invocations"`
	Results            []sarifResult                    `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string       `json:"id"`
	ShortDescription     sarifMessage `json:"shortDescription"`
	FullDescription      sarifMessage `json:"fullDescription"`
	HelpURI              string       `json:"helpUri,omitempty"`
	DefaultConfiguration struct {
		Level string `json:"level"`
	} `json:"defaultConfiguration"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level   string       `json:"level"`
	Message sarifMessage `json:"message"`
}

type sarifResult struct {
	RuleID           string          `json:"ruleId"`
	RuleIndex        int             `json:"ruleIndex"`
	Level            string          `json:"level"`
	Message          sarifMessage    `json:"message"`
	Locations        []sarifLocation `json:"locations"`
	RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
	Fixes            []sarifFix      `json:"fixes,omitempty"`
}

type sarifLocation struct {
	ID               *int                  `json:"id,omitempty"`
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
	Message          *sarifMessage         `json:"message,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

type sarifArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int  `json:"startLine,omitempty"`
	StartColumn int  `json:"startColumn,omitempty"`
	EndLine     int  `json:"endLine,omitempty"`
	EndColumn   int  `json:"endColumn,omitempty"`
	ByteOffset  *int `json:"byteOffset,omitempty"`
	ByteLength  *int `json:"byteLength,omitempty"`
}

type sarifFix struct {
	Description     sarifMessage          `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Replacements     []sarifReplacement    `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion   `json:"deletedRegion"`
	InsertedContent *sarifMessage `json:"insertedContent,omitempty"`
}

// srcRoot is the base of relative artifact URIs: the working directory.
const srcRoot = "%SRCROOT%"

// writeSARIF writes one SARIF run: a rule per check (and per model whose debug report is in
// the findings), a result per finding with its related locations and its fixes, and the
// failures as notifications of an unsuccessful invocation.
func writeSARIF(w io.Writer, failures []failure, findings []finding) error {
	rules := checks()
	for _, f := range findings {
		if named(rules, f.Analyzer) == nil {
			if a := named(all(), f.Analyzer); a != nil {
				rules = append(rules, a)
			}
		}
	}
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:           "idemlint",
			Version:        moduleVersion(),
			InformationURI: "https://github.com/idemlint/idemlint",
			Rules:          []sarifRule{},
		}},
		Invocations: []sarifInvocation{{ExecutionSuccessful: len(failures) == 0}},
		Results:     []sarifResult{},
	}
	if wd, err := os.Getwd(); err == nil {
		run.OriginalURIBaseIDs = map[string]sarifArtifactLocation{srcRoot: {URI: fileURI(wd) + "/"}}
	}
	for _, a := range rules {
		r := sarifRule{
			ID:               a.Name,
			ShortDescription: sarifMessage{strings.SplitN(a.Doc, "\n", 2)[0]},
			FullDescription:  sarifMessage{a.Doc},
			HelpURI:          a.URL,
		}
		r.DefaultConfiguration.Level = "warning"
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, r)
	}
	for _, f := range failures {
		msg := f.Msg
		if f.Pkg != "" {
			msg = f.Pkg + ": " + msg
		}
		run.Invocations[0].ToolExecutionNotifications = append(run.Invocations[0].ToolExecutionNotifications,
			sarifNotification{Level: "error", Message: sarifMessage{msg}})
	}
	for _, f := range findings {
		res := sarifResult{
			RuleID:    f.Analyzer,
			RuleIndex: slices.IndexFunc(rules, func(a *analysis.Analyzer) bool { return a.Name == f.Analyzer }),
			Level:     "warning",
			Message:   sarifMessage{f.Message},
			Locations: []sarifLocation{{PhysicalLocation: physical(f.Posn, f.End)}},
		}
		for i, r := range f.Related {
			id := i + 1
			res.RelatedLocations = append(res.RelatedLocations, sarifLocation{
				ID:               &id,
				PhysicalLocation: physical(r.Posn, r.End),
				Message:          &sarifMessage{r.Message},
			})
		}
		for _, fx := range f.SuggestedFixes {
			sf := sarifFix{Description: sarifMessage{fx.Message}}
			byFile := make(map[string]int)
			for _, e := range fx.Edits {
				i, ok := byFile[e.Filename]
				if !ok {
					i = len(sf.ArtifactChanges)
					byFile[e.Filename] = i
					sf.ArtifactChanges = append(sf.ArtifactChanges, sarifArtifactChange{ArtifactLocation: artifact(e.Filename)})
				}
				off, n := e.Start, e.End-e.Start
				sf.ArtifactChanges[i].Replacements = append(sf.ArtifactChanges[i].Replacements, sarifReplacement{
					DeletedRegion:   sarifRegion{ByteOffset: &off, ByteLength: &n},
					InsertedContent: &sarifMessage{e.New},
				})
			}
			res.Fixes = append(res.Fixes, sf)
		}
		run.Results = append(run.Results, res)
	}
	data, err := json.MarshalIndent(sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{run}}, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}

func physical(posn, end string) sarifPhysicalLocation {
	p, e := parsePosn(posn), parsePosn(end)
	loc := sarifPhysicalLocation{ArtifactLocation: artifact(p.file)}
	if p.line > 0 {
		loc.Region = &sarifRegion{StartLine: p.line, StartColumn: p.col}
		if e.file == p.file && e.line > 0 {
			loc.Region.EndLine, loc.Region.EndColumn = e.line, e.col
		}
	}
	return loc
}

// artifact locates file relative to the working directory when it lies below it.
func artifact(file string) sarifArtifactLocation {
	if rel := relative(file); !filepath.IsAbs(rel) {
		return sarifArtifactLocation{URI: (&url.URL{Path: filepath.ToSlash(rel)}).String(), URIBaseID: srcRoot}
	}
	return sarifArtifactLocation{URI: fileURI(file)}
}

func fileURI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}
