package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// -fix -diff prints a patch that git apply and patch -p1 accept: "--- a/FILE" and "+++ b/FILE"
// headers with the file relative to the working directory, and hunks whose line numbers are
// right. go vet -fix -diff (x/tools' unitchecker) prints absolute paths with " (old)" and
// " (new)", and miscounts the new file's line numbers after the first hunk; its old line
// numbers and its hunks' lines are right. So the driver reads go vet's diffs, rebuilds each
// file as -fix would write it (checking every line against the file on disk), and computes the
// diff itself.

// A vetDiff is the diff go vet printed for one file.
type vetDiff struct {
	file  string
	hunks []vetHunk
}

type vetHunk struct {
	oldStart, oldCount int
	lines              []string // each with its prefix (' ', '-', '+') and its "\n", unless the file ends without one
}

var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)

// parseVetDiffs reads the unified diffs of go vet -fix -diff.
func parseVetDiffs(out string) ([]vetDiff, error) {
	var diffs []vetDiff
	lines := strings.SplitAfter(out, "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case l == "":
		case strings.HasPrefix(l, "--- "):
			if i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "+++ ") {
				return nil, fmt.Errorf("line %d: --- without +++", i+1)
			}
			name := strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(l, "--- "), "\n"), " (old)")
			diffs = append(diffs, vetDiff{file: name})
			i++
		case strings.HasPrefix(l, "@@ "):
			m := hunkHeader.FindStringSubmatch(l)
			if m == nil || len(diffs) == 0 {
				return nil, fmt.Errorf("line %d: bad hunk header %q", i+1, l)
			}
			h := vetHunk{oldCount: 1}
			h.oldStart, _ = strconv.Atoi(m[1])
			if m[2] != "" {
				h.oldCount, _ = strconv.Atoi(m[2])
			}
			d := &diffs[len(diffs)-1]
			d.hunks = append(d.hunks, h)
		case strings.HasPrefix(l, `\ `): // "\ No newline at end of file": the line before has none
			d := &diffs[len(diffs)-1]
			if len(d.hunks) == 0 || len(d.hunks[len(d.hunks)-1].lines) == 0 {
				return nil, fmt.Errorf("line %d: %q before any line", i+1, l)
			}
			hl := d.hunks[len(d.hunks)-1].lines
			hl[len(hl)-1] = strings.TrimSuffix(hl[len(hl)-1], "\n")
		case l[0] == ' ' || l[0] == '-' || l[0] == '+':
			if len(diffs) == 0 || len(diffs[len(diffs)-1].hunks) == 0 {
				return nil, fmt.Errorf("line %d: %q outside a hunk", i+1, l)
			}
			d := &diffs[len(diffs)-1]
			h := &d.hunks[len(d.hunks)-1]
			h.lines = append(h.lines, l)
		default:
			return nil, fmt.Errorf("line %d: unexpected %q", i+1, l)
		}
	}
	return diffs, nil
}

// apply rebuilds the new content of d's file from its old content, by the old line numbers.
func (d vetDiff) apply(old string) (string, error) {
	src := splitLines(old)
	var out strings.Builder
	next := 0 // the first line of src not yet copied
	for _, h := range d.hunks {
		at := h.oldStart - 1
		if h.oldCount == 0 {
			at = h.oldStart // an insertion after line oldStart
		}
		if at < next || at > len(src) {
			return "", fmt.Errorf("%s: hunk at line %d out of order", d.file, h.oldStart)
		}
		for ; next < at; next++ {
			out.WriteString(src[next])
		}
		for _, l := range h.lines {
			text := l[1:]
			switch l[0] {
			case '+':
				out.WriteString(text)
				continue
			case ' ':
				out.WriteString(text)
			}
			if next >= len(src) || src[next] != text {
				return "", fmt.Errorf("%s: line %d is not what go vet's diff says it is", d.file, next+1)
			}
			next++
		}
	}
	for ; next < len(src); next++ {
		out.WriteString(src[next])
	}
	return out.String(), nil
}

// splitLines splits s into lines, each with its "\n" (the last one may have none).
func splitLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// writePatch turns go vet's -fix -diff output into a patch on w, and returns the files it
// changes. Two diffs of one file (from a package and its test variant) print once; when they
// differ, the first is printed and warn says so.
func writePatch(w io.Writer, vetOut string, warn io.Writer) ([]string, error) {
	diffs, err := parseVetDiffs(vetOut)
	if err != nil {
		return nil, fmt.Errorf("reading go vet's diff: %v", err)
	}
	seen := make(map[string]string)
	var files []string
	var patch bytes.Buffer
	for _, d := range diffs {
		oldData, err := os.ReadFile(d.file)
		if err != nil {
			return nil, err
		}
		updated, err := d.apply(string(oldData))
		if err != nil {
			return nil, fmt.Errorf("reading go vet's diff: %v", err)
		}
		if prev, ok := seen[d.file]; ok {
			if prev != updated {
				fmt.Fprintf(warn, "idemlint: %s: two analyses of this file (the package and its tests) give different fixes; the diff shows the first; apply it and run again for the rest\n", relative(d.file))
			}
			continue
		}
		seen[d.file] = updated
		files = append(files, d.file)
		name := filepath.ToSlash(relative(d.file))
		patch.WriteString(unified("a/"+name, "b/"+name, string(oldData), updated))
	}
	_, err = w.Write(patch.Bytes())
	return files, err
}

// unified returns the unified diff (three lines of context) from old to updated, with the
// headers "--- from" and "+++ to", or "" when they are equal.
func unified(from, to, old, updated string) string {
	a, b := splitLines(old), splitLines(updated)
	if old == "" {
		a = nil
	}
	if updated == "" {
		b = nil
	}
	ops := diffLines(a, b)
	const context = 3
	var out strings.Builder
	// Group the changes into hunks: changes closer than 2*context lines share one.
	var changes []int
	for i, op := range ops {
		if op.kind != ' ' {
			changes = append(changes, i)
		}
	}
	if len(changes) == 0 {
		return ""
	}
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", from, to)
	for c := 0; c < len(changes); {
		first := changes[c]
		last := first
		for c++; c < len(changes) && changes[c]-last <= 2*context; c++ {
			last = changes[c]
		}
		lo, hi := max(first-context, 0), min(last+context+1, len(ops))
		oldStart, newStart, oldCount, newCount := ops[lo].oldLine, ops[lo].newLine, 0, 0
		var body strings.Builder
		for _, op := range ops[lo:hi] {
			switch op.kind {
			case ' ':
				oldCount++
				newCount++
			case '-':
				oldCount++
			case '+':
				newCount++
			}
			body.WriteByte(op.kind)
			body.WriteString(op.text)
			if !strings.HasSuffix(op.text, "\n") {
				body.WriteString("\n\\ No newline at end of file\n")
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(oldStart, oldCount), hunkRange(newStart, newCount))
		out.WriteString(body.String())
	}
	return out.String()
}

// hunkRange is a hunk header's "start,count": start is 1-based, or, for an empty range, the
// line after which it lies.
func hunkRange(start, count int) string {
	if count == 0 {
		return fmt.Sprintf("%d,0", start-1)
	}
	return fmt.Sprintf("%d,%d", start, count)
}

// A lineOp is one line of a diff: kept (' '), deleted ('-') or inserted ('+'). oldLine and
// newLine are the 1-based numbers of the line where it stands in each file (for a deletion,
// newLine is that of the next line of the new file; for an insertion, oldLine likewise).
type lineOp struct {
	kind             byte
	text             string
	oldLine, newLine int
}

// diffLines returns a shortest edit script from a to b (Myers' algorithm, after taking off
// the common prefix and suffix).
func diffLines(a, b []string) []lineOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []lineOp
	oldLine, newLine := 1, 1
	emit := func(kind byte, text string) {
		ops = append(ops, lineOp{kind, text, oldLine, newLine})
		if kind != '+' {
			oldLine++
		}
		if kind != '-' {
			newLine++
		}
	}
	for _, l := range a[:pre] {
		emit(' ', l)
	}
	for _, k := range myers(a[pre:len(a)-suf], b[pre:len(b)-suf]) {
		emit(k.kind, k.text)
	}
	for _, l := range a[len(a)-suf:] {
		emit(' ', l)
	}
	return ops
}

type edit struct {
	kind byte
	text string
}

// myers returns the edit script from a to b: deletions before insertions where they meet.
func myers(a, b []string) []edit {
	n, m := len(a), len(b)
	maxD := n + m
	if maxD == 0 {
		return nil
	}
	off := maxD
	v := make([]int, 2*maxD+2)
	var trace [][]int
	var d int
search:
	for d = 0; d <= maxD; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = v[off+k+1] // down: an insertion
			} else {
				x = v[off+k-1] + 1 // right: a deletion
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				break search
			}
		}
	}
	// Walk back through the trace.
	var rev []edit
	x, y := n, m
	for ; d > 0; d-- {
		vd := trace[d]
		k := x - y
		var prevK int
		if k == -d || k != d && vd[off+k-1] < vd[off+k+1] {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := vd[off+prevK]
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			x--
			y--
			rev = append(rev, edit{' ', a[x]})
		}
		if x == prevX {
			y--
			rev = append(rev, edit{'+', b[y]})
		} else {
			x--
			rev = append(rev, edit{'-', a[x]})
		}
	}
	for x > 0 && y > 0 {
		x--
		y--
		rev = append(rev, edit{' ', a[x]})
	}
	out := make([]edit, len(rev))
	for i, e := range rev {
		out[len(rev)-1-i] = e
	}
	return out
}
