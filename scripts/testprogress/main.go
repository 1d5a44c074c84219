// Command testprogress turns the event stream of "go test -json" (on stdin) into progress a
// person can follow: a line when each package starts and ends, the output of failing tests and
// of build failures, the reason of every skipped test, a note every 30 s of silence naming
// what is still running, and a summary line. It exits 1 when anything failed, or when a line
// {"Action":"exit","Output":"N"} (which scripts/test adds after each go test) gives a non-zero
// exit status that no failing test explains.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
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
}

type pkgState struct {
	started time.Time
	output  map[string][]string // test -> output lines
	tests   map[string]string   // test -> pass, fail, skip
}

func main() {
	label := "scripts/test"
	if len(os.Args) > 1 {
		label = os.Args[1]
	}
	if !follow(os.Stdin, os.Stdout, label, 30*time.Second) {
		os.Exit(1)
	}
}

// follow reads go test's events from in, writes the progress to out, and reports whether
// everything passed. silence is how long it waits before saying what is still running.
func follow(in io.Reader, out io.Writer, label string, silence time.Duration) bool {
	var mu sync.Mutex
	pkgs := make(map[string]*pkgState)
	var running []string
	last := time.Now()
	start := time.Now()
	var ok, failed, noTests int
	var passedTests, failedTests, skippedTests int
	var failures []string
	print := func(format string, args ...any) {
		fmt.Fprintf(out, format+"\n", args...)
		last = time.Now()
	}
	state := func(pkg string) *pkgState {
		s := pkgs[pkg]
		if s == nil {
			s = &pkgState{started: time.Now(), output: make(map[string][]string), tests: make(map[string]string)}
			pkgs[pkg] = s
		}
		return s
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
			print("%s", line) // not an event: the go command's own output
			mu.Unlock()
			continue
		}
		mu.Lock()
		switch {
		case e.Action == "exit":
			// scripts/test's record of go test's exit status.
			if e.Output != "0" && len(failures) == 0 {
				failures = append(failures, "go test exited with status "+e.Output)
			}
		case e.Action == "build-output":
			buildOutput[e.ImportPath] = append(buildOutput[e.ImportPath], e.Output)
		case e.Action == "build-fail":
			print("FAIL  %s [build failed]\n%s", e.ImportPath, strings.Join(buildOutput[e.ImportPath], ""))
			failures = append(failures, e.ImportPath+" [build failed]")
		case e.Test == "" && e.Action == "start":
			state(e.Package)
			running = append(running, e.Package)
		case e.Test == "" && e.Action == "output":
			state(e.Package).output[""] = append(state(e.Package).output[""], e.Output)
		case e.Test != "" && e.Action == "output":
			s := state(e.Package)
			s.output[e.Test] = append(s.output[e.Test], e.Output)
		case e.Test != "" && strings.Contains(e.Test, "/") && e.Action != "fail":
			// A subtest: its parent's verdict counts (a failing one is shown below).
		case e.Test != "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip"):
			s := state(e.Package)
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
				if !slices.ContainsFunc(failures, func(f string) bool { return strings.HasPrefix(f, e.Package+" ") }) {
					// Failed outside a test (a panic in TestMain, a timeout): show its output.
					print("%s", strings.Join(s.output[""], ""))
					failures = append(failures, e.Package)
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
	result := "PASS"
	if len(failures) > 0 {
		result = "FAIL"
	}
	print("%s: %s in %s: %d packages ok, %d failed, %d without tests; %d tests passed, %d failed, %d skipped",
		label, result, time.Since(start).Round(time.Second), ok, failed, noTests, passedTests, failedTests, skippedTests)
	if len(failures) > 0 {
		print("%s: failed: %s", label, strings.Join(failures, "; "))
	}
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
