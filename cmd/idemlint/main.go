// Command idemlint finds retry and idempotency mistakes in Go code.
//
// Standalone:
//
//	idemlint [-fix [-diff]] [-json | -format=sarif|github] [-NAME] packages
//
// As a go vet or go fix tool:
//
//	go vet -vettool=$(command -v idemlint) ./...
//	go fix -fixtool=$(command -v idemlint) ./...
//
// Run "idemlint help" for the checks, configuration, suppression and exit codes.
package main

import (
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

func main() {
	args := os.Args[1:]
	for _, arg := range args {
		switch arg {
		case "-V=full", "--V=full":
			// The go command identifies vet and fix tools by this line; "devel" and the
			// buildID of the executable's content keep its cache right across rebuilds.
			fmt.Printf("idemlint version devel %s buildID=%s\n", moduleVersion(), executableHash())
			os.Exit(0)
		case "-version", "--version", "-V", "--V":
			fmt.Printf("idemlint %s\n", longVersion())
			os.Exit(0)
		}
	}
	if isVettool(args) {
		vettool(args) // exits
	}
	os.Exit(standalone(args, os.Stdout, os.Stderr))
}

// moduleVersion is idemlint's module version from the build information: a tag such as
// v0.3.0 when installed with go install, "(devel)" when built in its own repository.
func moduleVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += "+" + s.Value[:12]
		}
	}
	return v
}

// longVersion is what -version prints: the module version, and for a build from a checkout
// the commit, its date, and whether the work tree had changes, as the go command stamps them
// into the binary (debug.ReadBuildInfo): "(devel) 4d269f6c1a2b 2026-11-30T18:02:11Z",
// "(devel) 4d269f6c1a2b 2026-11-30T18:02:11Z +changes", or, where the go command makes a
// pseudo-version of the commit, "v0.0.0-20261130180211-4d269f6c1a2b 2026-11-30T18:02:11Z". A
// binary built without VCS information (-buildvcs=false, or outside a git checkout) says so.
func longVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown (no build information)"
	}
	return versionOf(info)
}

// Set by scripts/lint with -ldflags -X from git, for builds the go command does not stamp (a
// git worktree, whose .git is a file, or GOFLAGS=-buildvcs=false): the build information's own
// values win when it has them.
var stampRevision, stampTime, stampModified string

func versionOf(info *debug.BuildInfo) string {
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	rev, date, modified := stampRevision, stampTime, stampModified == "true"
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			date = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	switch {
	case rev == "" && v == "(devel)":
		return v + " (built without VCS information: build from a git checkout, with -buildvcs=true)"
	case rev == "":
		return v
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if !strings.Contains(v, rev) {
		v += " " + rev // the go command's pseudo-version (Go 1.24 and later) has it already
	}
	if date != "" {
		v += " " + date
	}
	if modified && !strings.HasSuffix(info.Main.Version, "+dirty") {
		v += " +changes"
	}
	return v
}

func executableHash() string {
	exe, err := os.Executable()
	if err != nil {
		return "unknown"
	}
	f, err := os.Open(exe)
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "unknown"
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}
