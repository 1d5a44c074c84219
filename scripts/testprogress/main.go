// Command testprogress turns the event stream of "go test -json" (on stdin) into progress a
// person can follow: a line when each package ends, the output of failing tests and of build
// failures, the reason of every skipped test, a note every 30 s of silence naming what is still
// running, and a summary.
//
// A test binary that times out (or panics) leaves the test that was running without a verdict:
// that test is reported as failed, with go's message ("panic: test timed out after 10m0s", the
// tests that were running) and the start of the goroutine dump. A package still running when
// the stream ends (go test was stopped) fails too.
//
// scripts/test adds a line {"Action":"exit","Output":"N","Reason":"WHAT"} after each command
// it runs (go test, the golangci-lint build): a non-zero status fails the run, so that a
// failure that produced no event (a broken go.mod, a build that did not finish) still fails it.
//
// The last line is "LABEL: N passed, N failed, N skipped". Failures that are not a test's (a
// package that did not build, a test binary that died outside any test, a command's exit
// status) count as failed, so a failing run never reports 0 failed. testprogress exits 1 when
// anything failed.
//
// Usage: testprogress [LABEL [START]], START being when the run began, in Unix seconds (the
// time in the summary counts from there).
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

type event struct {
	Time        time.Time
	Action      string
	Package     string
	Test        string
	Elapsed     float64
	Output      string
	ImportPath  string
	FailedBuild string
	Reason      string // scripts/test's exit lines: what exited
}

type pkgState struct {
	started time.Time
	output  map[string][]string // test -> output lines
	tests   map[string]string   // top-level test -> pass, fail, skip
	ran     []string            // tests (and subtests) that started, in order
	verdict map[string]bool     // tests (and subtests) that got a verdict
	lines   []testLine          // every output line of a test, in order
}

type testLine struct{ test, text string }

// dumpLines is how much of a goroutine dump is shown for a test that did not finish.
const dumpLines = 40

func main() {
	label := "scripts/test"
	if len(os.Args) > 1 {
		label = os.Args[1]
	}
	start := time.Now()
	if len(os.Args) > 2 {
		if s, err := strconv.ParseInt(os.Args[2], 10, 64); err == nil {
			start = time.Unix(s, 0)
		}
	}
	if !follow(os.Stdin, os.Stdout, label, 30*time.Second, start) {
		os.Exit(1)
	}
}

// follow reads go test's events from in, writes the progress to out, and reports whether
// everything passed. silence is how long it waits before saying what is still running.
func follow(in io.Reader, out io.Writer, label string, silence time.Duration, start time.Time) bool {
	var mu sync.Mutex
	pkgs := make(map[string]*pkgState)
	var running []string
	last := time.Now()
	var ok, failed, noTests int
	var passedTests, failedTests, skippedTests int
	var failures []string
	otherFailures := 0 // failures that are not a test's
	print := func(format string, args ...any) {
		fmt.Fprintf(out, format+"\n", args...)
		last = time.Now()
	}
	state := func(pkg string) *pkgState {
		s := pkgs[pkg]
		if s == nil {
			s = &pkgState{started: time.Now(), output: make(map[string][]string), tests: make(map[string]string), verdict: make(map[string]bool)}
			pkgs[pkg] = s
		}
		return s
	}
	// unfinished reports the tests of pkg that started and got no verdict, each top-level one
	// as a failure, with go's message and what they printed; it returns how many it found.
	unfinished := func(pkg, why string) int {
		s := state(pkg)
		var tests []string
		for _, t := range s.ran {
			if !s.verdict[t] {
				tests = append(tests, t)
			}
		}
		if len(tests) == 0 {
			return 0
		}
		reason := why
		for _, l := range s.lines {
			if msg, ok := strings.CutPrefix(strings.TrimSpace(l.text), "panic: "); ok {
				reason = msg
				break
			}
		}
		for _, t := range tests {
			print("--- FAIL %s %s (did not finish: %s)", pkg, t, reason)
			failures = append(failures, pkg+" "+t+" (did not finish)")
			if !strings.Contains(t, "/") {
				failedTests++
			}
		}
		var shown []string
		dump := 0
		for _, l := range s.lines {
			if !slices.Contains(tests, l.test) || strings.HasPrefix(l.text, "=== ") {
				continue
			}
			if strings.HasPrefix(l.text, "goroutine ") {
				dump++ // the goroutine dump starts: show its first lines only
			}
			if dump > 0 {
				dump++
				if dump > dumpLines {
					continue
				}
			}
			shown = append(shown, strings.TrimRight(l.text, "\n"))
		}
		if dump > dumpLines {
			shown = append(shown, fmt.Sprintf("... (%d more lines of goroutine dump)", dump-dumpLines))
		}
		if len(shown) > 0 {
			print("%s", strings.Join(shown, "\n"))
		}
		return len(tests)
	}

	done := make(chan struct{})
	defer close(done)
	go func() {
		tick := time.NewTicker(silence / 6)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			mu.Lock()
			if time.Since(last) >= silence && len(running) > 0 {
				var names []string
				for _, p := range running {
					names = append(names, fmt.Sprintf("%s (%s)", p, time.Since(pkgs[p].started).Round(time.Second)))
				}
				print("  ... still running: %s", strings.Join(names, ", "))
			}
			mu.Unlock()
		}
	}()

	buildOutput := make(map[string][]string)
	sc := bufio.NewScanner(in)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		line := sc.Text()
		var e event
		if !strings.HasPrefix(line, "{") || json.Unmarshal([]byte(line), &e) != nil {
			mu.Lock()
			print("%s", line) // not an event: the go command's or scripts/test's own output
			mu.Unlock()
			continue
		}
		mu.Lock()
		switch {
		case e.Action == "exit":
			// scripts/test's record of a command's exit status.
			what := e.Reason
			if what == "" {
				what = "go test"
			}
			if e.Output != "0" {
				msg := what + " exited with status " + e.Output
				if e.Output == "124" {
					msg += " (stopped: the run's time budget ran out)"
				}
				print("%s: %s", label, msg)
				// A go test whose failing tests are already counted explains its own status.
				if what != "go test" && !strings.HasPrefix(what, "go test ") || len(failures) == 0 {
					failures = append(failures, msg)
					otherFailures++
				}
			}
		case e.Action == "build-output":
			buildOutput[e.ImportPath] = append(buildOutput[e.ImportPath], e.Output)
		case e.Action == "build-fail":
			print("FAIL  %s [build failed]\n%s", e.ImportPath, strings.Join(buildOutput[e.ImportPath], ""))
			failures = append(failures, e.ImportPath+" [build failed]")
			otherFailures++
		case e.Test == "" && e.Action == "start":
			state(e.Package)
			running = append(running, e.Package)
		case e.Test == "" && e.Action == "output":
			state(e.Package).output[""] = append(state(e.Package).output[""], e.Output)
		case e.Test != "" && e.Action == "run":
			s := state(e.Package)
			s.ran = append(s.ran, e.Test)
		case e.Test != "" && e.Action == "output":
			s := state(e.Package)
			s.output[e.Test] = append(s.output[e.Test], e.Output)
			s.lines = append(s.lines, testLine{e.Test, e.Output})
		case e.Test != "" && strings.Contains(e.Test, "/") && e.Action != "fail":
			// A subtest: its parent's verdict counts (a failing one is shown below).
			state(e.Package).verdict[e.Test] = true
		case e.Test != "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip"):
			s := state(e.Package)
			s.verdict[e.Test] = true
			if !strings.Contains(e.Test, "/") {
				s.tests[e.Test] = e.Action
			}
			switch e.Action {
			case "pass":
				passedTests++
			case "fail":
				if !strings.Contains(e.Test, "/") {
					failedTests++
				}
				print("--- FAIL %s %s (%.1fs)", e.Package, e.Test, e.Elapsed)
				if o := strings.Join(s.output[e.Test], ""); strings.TrimSpace(o) != "" {
					print("%s", strings.TrimRight(o, "\n"))
				}
				failures = append(failures, e.Package+" "+e.Test)
			case "skip":
				skippedTests++
				print("  skip  %s %s: %s", e.Package, e.Test, skipReason(s.output[e.Test]))
			}
		case e.Test == "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip"):
			s := state(e.Package)
			running = slices.DeleteFunc(running, func(p string) bool { return p == e.Package })
			n := len(s.tests)
			switch {
			case e.Action == "fail":
				failed++
				if unfinished(e.Package, "the test binary exited") == 0 &&
					!slices.ContainsFunc(failures, func(f string) bool { return strings.HasPrefix(f, e.Package+" ") }) {
					// Failed outside any test (a panic in TestMain, a broken init): show its output.
					print("%s", strings.TrimRight(strings.Join(s.output[""], ""), "\n"))
					failures = append(failures, e.Package)
					otherFailures++
				}
				print("FAIL  %s (%.1fs)", e.Package, e.Elapsed)
			case n == 0:
				noTests++
			default:
				ok++
				print("ok    %s (%.1fs, %d tests)", e.Package, e.Elapsed, n)
			}
		}
		mu.Unlock()
	}
	mu.Lock()
	defer mu.Unlock()
	// Packages that never ended: go test was stopped while they ran.
	for _, p := range running {
		failed++
		if unfinished(p, "go test was stopped") == 0 {
			failures = append(failures, p+" (did not finish)")
			otherFailures++
		}
		print("FAIL  %s (did not finish: still running after %s)", p, time.Since(pkgs[p].started).Round(time.Second))
	}
	result := "PASS"
	if len(failures) > 0 {
		result = "FAIL"
	}
	print("%s: %s in %s: %d packages ok, %d failed, %d without tests",
		label, result, time.Since(start).Round(time.Second), ok, failed, noTests)
	if len(failures) > 0 {
		print("%s: failed: %s", label, strings.Join(failures, "; "))
	}
	failedAll := failedTests + otherFailures
	if len(failures) > 0 && failedAll == 0 {
		failedAll = 1
	}
	print("%s: %d passed, %d failed, %d skipped", label, passedTests, failedAll, skippedTests)
	return len(failures) == 0
}

// skipReason is the message a skipped test gave, without go test's framing.
func skipReason(lines []string) string {
	var out []string
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "=== ") || strings.HasPrefix(l, "--- SKIP") {
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, " ")
}
