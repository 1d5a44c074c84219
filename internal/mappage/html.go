package mappage

import (
	"cmp"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Write writes m as one self-contained HTML page: inline CSS and SVG, no script, no external
// resource, so that it opens from a file with no network. Dependencies come worst first, each
// with its paths (the first three shown, the others behind a <details>) and the retry layers of
// each path as nested boxes, outermost outside.
//
// The page carries its facts in data attributes for tests and tools: each dependency is a
// <section class="dep"> with data-name, data-kind and data-worst (Worst.Calls), each path a
// <div class="path"> with data-entry and data-worst, each layer a <div class="layer"> with
// data-attempts.
func Write(w io.Writer, m *Map) error {
	if m == nil {
		m = &Map{}
	}
	return pageTemplate.Execute(w, newPage(m))
}

var pageTemplate = template.Must(template.New("page").Parse(pageText))

const (
	shownPaths = 3  // paths shown per dependency; the others are behind a <details>
	pagePaths  = 60 // paths on the page per dependency; the JSON has them all
	alsoNames  = 6  // entry points named under a path that many reach the same way
	chartRows  = 15 // dependencies in the header's chart
)

type page struct {
	Packages   string
	NDeps      string
	NPaths     string
	Deps       []dep
	Chart      chart
	ChartTitle string
	Index      bool // the chart does not show every dependency: list them all
}

type dep struct {
	ID      string
	Name    string
	Kind    string
	Worst   Worst
	Big     string // the worst case, large
	Unit    string
	Sev     string // CSS class of the worst case
	Timeout string
	NoLimit bool   // no timeout on one attempt
	Time    string // the longest a request can wait (Worst.Time)
	Endless bool   // Time is unbounded
	Meta    string
	Bar     bar
	Shown   []path
	More    []path
	MoreN   string
	Left    string // the paths left off the page
}

type path struct {
	Entry    Func
	Chain    []step
	Call     Site
	Method   string
	Key      string // "sent", "none" or ""
	Layers   []layer
	Worst    Worst
	Product  string // "3 × 3 = 9 calls"
	Time     string // "at most 19s", when the model knows it
	Sev      string
	Timeout  string
	NoLimit  bool
	Findings []Finding
	Also     string // the other entry points that reach the call the same way
}

type step struct {
	Short, Full, Posn string
}

type layer struct {
	Layer
	Class     string // CSS classes
	Factor    string // ×3, ×∞, ×?
	KindText  string
	Tries     string
	TriesWarn string // CSS class for the attempts chip
	WaitText  string
	WaitWarn  string
	Limit     string
}

func newPage(m *Map) *page {
	p := &page{Packages: strings.Join(m.Packages, " ")}
	deps := slices.Clone(m.Dependencies)
	slices.SortStableFunc(deps, func(a, b Dependency) int {
		return cmp.Or(compareWorst(a.Worst, b.Worst), cmp.Compare(a.Name, b.Name))
	})
	sc := newScale(deps)
	npaths := 0
	for i, d := range deps {
		npaths += len(d.Paths)
		p.Deps = append(p.Deps, newDep(i, d, sc))
	}
	p.NDeps = plural(len(deps), "dependency", "dependencies")
	p.NPaths = plural(npaths, "path", "paths")
	p.Chart = newChart(p.Deps, sc)
	if len(deps) > chartRows {
		p.ChartTitle = fmt.Sprintf("Worst case per dependency: the %d worst of %d", chartRows, len(deps))
		p.Index = true
	} else {
		p.ChartTitle = "Worst case per dependency"
	}
	return p
}

func sevOf(w Worst) string {
	switch {
	case w.Calls == "unbounded":
		return "sev-unbounded"
	case w.N > 1:
		return "sev-many"
	case w.N == 1:
		return "sev-one"
	}
	return "sev-unknown"
}

func newDep(i int, d Dependency, sc scale) dep {
	v := dep{
		ID:    "dep-" + strconv.Itoa(i+1),
		Name:  d.Name,
		Kind:  d.Kind,
		Worst: d.Worst,
		Big:   cmp.Or(d.Worst.Calls, "unknown"),
		Unit:  "calls per request",
		Sev:   sevOf(d.Worst),
		Bar:   sc.bar(d.Worst, miniWidth),
	}
	if d.Worst.Calls == "1" {
		v.Unit = "call per request"
	}
	v.Timeout, v.NoLimit = timeoutText(d.Worst.Timeout)
	v.Time, v.Endless = cmp.Or(d.Worst.Time, "unknown"), d.Worst.Time == "unbounded"
	v.Meta = plural(d.Calls, "call site", "call sites") + " · " + plural(len(d.Paths), "path", "paths")
	paths := slices.Clone(d.Paths)
	slices.SortStableFunc(paths, func(a, b Path) int {
		return cmp.Or(compareWorst(a.Worst, b.Worst), cmp.Compare(a.Entry.Name, b.Entry.Name))
	})
	for j, q := range paths {
		if j >= pagePaths {
			v.Left = plural(len(paths)-j, "more path", "more paths") + ", of the same or a smaller worst case: idemlint map -format=json lists them all"
			break
		}
		if j < shownPaths {
			v.Shown = append(v.Shown, newPath(q))
		} else {
			v.More = append(v.More, newPath(q))
		}
	}
	if len(v.More) > 0 {
		v.MoreN = plural(len(v.More), "more path", "more paths")
	}
	return v
}

func timeoutText(t string) (string, bool) {
	switch t {
	case "":
		return "unknown", false
	case "none":
		return "none", true
	}
	return t, false
}

func newPath(q Path) path {
	v := path{
		Entry:    q.Entry,
		Call:     q.Call,
		Method:   q.Method,
		Key:      q.Key,
		Worst:    q.Worst,
		Sev:      sevOf(q.Worst),
		Findings: q.Findings,
	}
	v.Timeout, v.NoLimit = timeoutText(q.Worst.Timeout)
	if n := len(q.Also); n > 0 {
		var names []string
		for _, f := range q.Also[:min(n, alsoNames)] {
			names = append(names, pkgFunc(f.Name))
		}
		v.Also = "the same way from " + plural(n, "other entry point", "other entry points") + ": " + strings.Join(names, ", ")
		if n > alsoNames {
			v.Also += fmt.Sprintf(" and %d more", n-alsoNames)
		}
	}
	steps := q.Steps
	if len(steps) == 0 {
		steps = []Func{q.Entry}
	}
	for i, f := range steps {
		s := step{Short: shortFunc(f.Name), Full: f.Name, Posn: f.Posn}
		if i == 0 {
			s.Short = pkgFunc(f.Name)
		}
		if i > 0 && f.Kind == "runs later" {
			s.Short += " (later)" // a closure kept and run later: not retried by what made it
			s.Full += ", kept and run later"
		}
		v.Chain = append(v.Chain, s)
	}
	v.Chain = append(v.Chain, step{Short: q.Call.Name, Full: q.Call.Name, Posn: q.Call.Posn})
	var factors []string
	capless := false // a layer without a cap, whose deadline may stop it
	for _, l := range q.Layers {
		lv := newLayer(l)
		v.Layers = append(v.Layers, lv)
		factors = append(factors, strings.TrimPrefix(lv.Factor, "×"))
		capless = capless || l.Attempts == "unbounded" && l.Deadline != "none"
	}
	result := cmp.Or(q.Worst.Calls, "unknown")
	switch {
	case q.Worst.N > 0:
		result = plural(q.Worst.N, "call", "calls")
	case q.Worst.Calls == "unbounded", q.Worst.Calls == "unknown":
		result += " calls"
	}
	switch len(factors) {
	case 0:
		v.Product = result + ", no retry layer"
	case 1:
		v.Product = result
	default:
		v.Product = strings.Join(factors, " × ") + " = " + result
	}
	if d, err := time.ParseDuration(q.Worst.Time); err == nil {
		v.Time = "at most " + d.String()
	}
	if capless && q.Worst.Calls == "unknown" {
		v.Product += " (no cap: only a deadline stops it)"
	}
	return v
}

var kindClass = map[string]string{
	"hand loop":            "k-loop",
	"library":              "k-library",
	"self-retrying client": "k-client",
	"framework redelivery": "k-framework",
}

func newLayer(l Layer) layer {
	v := layer{Layer: l, Class: cmp.Or(kindClass[l.Kind], "k-other"), KindText: l.Kind}
	if l.Framework != "" {
		v.KindText += " (" + l.Framework + ")"
	}
	switch {
	case l.N > 0:
		v.Factor = "×" + strconv.Itoa(l.N)
		v.Tries = plural(l.N, "attempt", "attempts")
	case l.Attempts == "unbounded":
		v.Factor = "×∞"
		v.Tries = "unbounded attempts"
		v.TriesWarn = "bad"
		v.Class += " unbounded"
	case l.Attempts == "variable":
		v.Factor = "×?"
		v.Tries = "attempts set at run time"
	default:
		v.Factor = "×?"
		v.Tries = "attempts unknown"
	}
	switch l.Wait {
	case "jittered":
		v.WaitText = "jittered wait"
	case "backoff":
		v.WaitText, v.WaitWarn = "backoff, no jitter", "warn"
	case "fixed":
		v.WaitText, v.WaitWarn = "fixed wait, no jitter", "warn"
	case "none":
		v.WaitText, v.WaitWarn = "no wait", "warn"
	case "", "unknown":
		v.WaitText = "wait unknown"
	default:
		v.WaitText = l.Wait + " wait"
	}
	switch l.Deadline {
	case "none":
		v.Limit = "no deadline"
	case "context":
		v.Limit = "deadline: context"
	case "elapsed":
		v.Limit = "deadline: elapsed time"
	case "", "unknown":
		v.Limit = "deadline unknown"
	default:
		v.Limit = "deadline: " + l.Deadline
	}
	return v
}

// pkgFunc drops the import path of a package-qualified name: "example.com/shop.Checkout" is
// "shop.Checkout".
func pkgFunc(name string) string {
	end := len(name)
	if i := strings.IndexAny(name, "(["); i >= 0 {
		end = i
	}
	if i := strings.LastIndex(name[:end], "/"); i >= 0 {
		return name[i+1:]
	}
	return name
}

// shortFunc drops the package and the receiver: "shop.(*Client).charge" is "charge".
func shortFunc(name string) string {
	s := pkgFunc(name)
	if i := strings.Index(s, "."); i >= 0 && !strings.HasPrefix(s, "(") {
		s = s[i+1:]
	}
	if strings.HasPrefix(s, "(") {
		if i := strings.Index(s, ")."); i >= 0 {
			s = s[i+2:]
		}
	}
	if s == "" {
		return name
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// The chart and the bars of the rows share a logarithmic scale of calls per request.

const (
	chartWidth = 960
	chartLabel = 300 // width of the names' column
	chartBar   = 560 // the longest bar
	chartTop   = 26
	chartRow   = 22
	miniWidth  = 240
)

type scale struct {
	max   int // the power of ten at or above the highest number of calls, at least 10
	ticks []int
}

func newScale(deps []Dependency) scale {
	top := 10
	for _, d := range deps {
		top = max(top, d.Worst.N)
	}
	s := scale{max: 1, ticks: []int{1}}
	for s.max < top && s.max <= math.MaxInt/10 {
		s.max *= 10
		s.ticks = append(s.ticks, s.max)
	}
	return s
}

// x is where n falls on a bar of the given width: numbers take up to width-40, so that an
// unbounded bar, which takes all of it, is always the longest.
func (s scale) x(n, width int) float64 {
	const stub = 5
	if n <= 1 {
		return stub
	}
	f := min(math.Log(float64(n))/math.Log(float64(s.max)), 1)
	return stub + float64(width-40-stub)*f
}

type bar struct {
	w     float64
	W     string
	Fill  string // CSS class
	Label string
}

func (s scale) bar(w Worst, width int) bar {
	var b bar
	switch {
	case w.Calls == "unbounded":
		b = bar{w: float64(width), Fill: "b-unbounded", Label: "unbounded"}
	case w.N > 0:
		b = bar{w: s.x(w.N, width), Fill: "b-many", Label: strconv.Itoa(w.N)}
		if w.N == 1 {
			b.Fill = "b-one"
		}
	default:
		b = bar{w: s.x(1, width), Fill: "b-unknown", Label: "unknown"}
	}
	b.W = num(b.w)
	return b
}

type chart struct {
	W, H  string
	NameX string
	BarX  string
	Ticks []tick
	Rows  []chartRowView
}

type tick struct {
	X, Label string
}

type chartRowView struct {
	Href     string
	Name     string
	Full     string
	Y, TextY string
	Bar      bar
	LabelX   string
	Sev      string
}

func newChart(deps []dep, s scale) chart {
	n := min(len(deps), chartRows)
	h := chartTop + n*chartRow + 4
	c := chart{W: num(chartWidth), H: num(float64(h)), NameX: num(chartLabel - 12), BarX: num(chartLabel)}
	for _, t := range s.ticks {
		c.Ticks = append(c.Ticks, tick{X: num(chartLabel + s.x(t, chartBar)), Label: strconv.Itoa(t)})
	}
	for i, d := range deps[:n] {
		y := chartTop + i*chartRow
		b := s.bar(d.Worst, chartBar)
		c.Rows = append(c.Rows, chartRowView{
			Href:   "#" + d.ID,
			Name:   truncate(d.Name, 40),
			Full:   d.Name + ": " + d.Big + " " + d.Unit,
			Y:      num(float64(y + 3)),
			TextY:  num(float64(y + 15)),
			Bar:    b,
			LabelX: num(chartLabel + b.w + 8),
			Sev:    d.Sev,
		})
	}
	return c
}

// truncate shortens s to n runes by cutting out its middle: names of a module's dependencies
// often share a prefix and differ at the end.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	head := (n - 1) / 2
	return string(r[:head]) + "…" + string(r[len(r)-(n-1-head):])
}

func num(f float64) string {
	return strconv.FormatFloat(math.Round(f*10)/10, 'f', -1, 64)
}

const pageText = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>idemlint map{{with .Packages}}: {{.}}{{end}}</title>
<style>
:root {
  --ink: #1c2430; --muted: #5b6676; --faint: #8a94a2; --line: #dfe3e8; --bg: #f3f5f7; --card: #fff;
  --accent: #33599e;
  --warn: #a34700; --warn-bg: #fff1dc; --warn-line: #efb36a;
  --bad: #b42318; --bad-bg: #fdebe9; --bad-line: #eea59c;
  --good: #17773a; --good-bg: #e5f4e9; --good-line: #a5d4b2;
  --sans: -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Liberation Sans", sans-serif;
  --mono: ui-monospace, "SF Mono", SFMono-Regular, Menlo, Consolas, "Liberation Mono", "DejaVu Sans Mono", monospace;
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--ink); font: 15px/1.45 var(--sans); }
main { max-width: 1120px; margin: 0 auto; padding: 28px 24px 48px; }
code { font-family: var(--mono); font-size: .9em; }
a { color: var(--accent); }
.top, .dep, .empty { background: var(--card); border: 1px solid var(--line); border-radius: 10px; }
.top { padding: 20px 24px 16px; margin-bottom: 20px; }
.top h1 { margin: 0; font-size: 26px; line-height: 1.2; letter-spacing: -.01em; }
.sub { margin: 4px 0 8px; color: var(--muted); }
.legend { margin: 0 0 4px; color: var(--muted); font-size: 13.5px; }
.legend .w { color: var(--warn); font-weight: 600; }
.kinds { margin: 0 0 12px; font-size: 12.5px; color: var(--muted); }
.kinds span { display: inline-block; border: 1.5px solid var(--lc); background: var(--lb); border-radius: 5px; padding: 0 7px; margin-right: 6px; }
.chart h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); margin: 14px 0 2px; font-weight: 600; }
svg.chart { display: block; max-width: 100%; height: auto; }
svg text { font-family: var(--sans); }
.c-name { font-size: 13px; fill: var(--ink); }
a:hover .c-name { fill: var(--accent); text-decoration: underline; }
.c-tick { font-size: 11px; fill: var(--faint); }
.c-grid { stroke: #e4e8ed; stroke-width: 1; }
.c-val { font-size: 12.5px; font-weight: 700; fill: var(--ink); }
.c-val.sev-unbounded { fill: var(--bad); }
.c-val.sev-unknown { fill: var(--faint); font-weight: 400; }
.b-many { fill: #5674b0; }
.b-one { fill: #a9badb; }
.b-unbounded { fill: url(#hatch); }
.b-unknown { fill: none; stroke: var(--faint); stroke-dasharray: 3 2; }
.track { fill: #edf0f4; }
details.index { margin-top: 10px; font-size: 13.5px; }
details.index summary { cursor: pointer; color: var(--accent); font-weight: 600; }
details.index ol { columns: 3 280px; column-gap: 28px; margin: 8px 0 0; padding-left: 2.6em; }
details.index li { break-inside: avoid; padding: 1px 0; }
details.index a { color: var(--ink); text-decoration: none; overflow-wrap: anywhere; }
details.index a:hover { color: var(--accent); text-decoration: underline; }
.iw { font-weight: 700; font-variant-numeric: tabular-nums; margin-left: 4px; }
.iw.sev-unbounded { color: var(--bad); }
.iw.sev-unknown { color: var(--faint); font-weight: 400; }
.empty { padding: 32px; text-align: center; font-size: 17px; color: var(--muted); }
.dep { margin: 0 0 16px; overflow: hidden; }
.dephead { display: grid; grid-template-columns: minmax(0, 1fr) 300px; gap: 24px; padding: 18px 24px 16px; border-bottom: 1px solid var(--line); }
.dephead.sev-unbounded { box-shadow: inset 5px 0 0 var(--bad); }
.dephead h2 { margin: 0; font-size: 20px; line-height: 1.25; overflow-wrap: anywhere; }
.meta { margin: 8px 0 0; color: var(--muted); font-size: 13.5px; }
.kind { display: inline-block; font-size: 12px; font-weight: 700; letter-spacing: .02em; color: var(--accent); background: #e9eef8; border-radius: 4px; padding: 1px 7px; margin-right: 8px; }
.figure { text-align: right; }
.worst { margin: 0; line-height: 1; }
.worst .big { display: block; font-size: 46px; font-weight: 700; letter-spacing: -.02em; font-variant-numeric: tabular-nums; }
.worst .unit { display: block; margin-top: 4px; font-size: 13.5px; color: var(--muted); }
.sev-unbounded .big { color: var(--bad); }
.sev-unknown .big { color: var(--faint); }
.sev-one .big { color: var(--muted); }
svg.mini { display: block; margin: 10px 0 8px auto; }
.timeout { margin: 0; font-size: 13.5px; color: var(--muted); }
.timeout b { color: var(--ink); font-weight: 600; }
.timeout b.none { color: var(--warn); background: var(--warn-bg); border: 1px solid var(--warn-line); border-radius: 4px; padding: 0 6px; }
.paths { padding: 4px 24px 12px; }
.path { padding: 14px 0 12px; border-top: 1px dashed var(--line); }
.paths > .path:first-child { border-top: 0; }
.pathhead { display: flex; align-items: baseline; justify-content: space-between; gap: 16px; margin-bottom: 8px; }
.route { font-family: var(--mono); font-size: 13.5px; overflow-wrap: break-word; min-width: 0; }
.route .step:first-of-type { font-weight: 700; }
.ekind { font-family: var(--sans); font-size: 11.5px; color: var(--muted); border: 1px solid var(--line); border-radius: 4px; padding: 0 6px; margin-right: 8px; white-space: nowrap; }
.arrow { color: var(--faint); }
.pworst { font-size: 15px; font-weight: 700; white-space: nowrap; font-variant-numeric: tabular-nums; }
.pworst.sev-unbounded { color: var(--bad); }
.pworst.sev-unknown { color: var(--faint); }
.layer { border: 1.5px solid var(--lc); background: var(--lb); border-radius: 8px; padding: 6px 10px 10px; }
.k-loop { --lc: #8499c2; --lb: #f0f4fb; }
.k-library { --lc: #5ea597; --lb: #eef8f5; }
.k-client { --lc: #9d89c8; --lb: #f5f2fb; }
.k-framework { --lc: #c39c5c; --lb: #fbf5ec; }
.k-other { --lc: #a6adb8; --lb: #f5f6f8; }
.layer.unbounded { --lc: var(--bad); border-style: dashed; border-width: 2px; }
.lhead { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 10px; margin-bottom: 6px; font-size: 13.5px; }
.factor { font-size: 17px; font-weight: 800; min-width: 2em; font-variant-numeric: tabular-nums; }
.unbounded > .lhead .factor { color: var(--bad); }
.lkind { font-size: 12.5px; font-weight: 600; color: var(--muted); }
.lname { font-family: var(--mono); font-size: 13px; font-weight: 600; }
.chips { display: inline-flex; flex-wrap: wrap; gap: 4px 6px; }
.chip { display: inline-block; font-size: 12.5px; line-height: 1.5; padding: 0 8px; border-radius: 10px; background: rgba(255, 255, 255, .85); border: 1px solid var(--line); white-space: nowrap; }
.chip.warn { color: var(--warn); background: var(--warn-bg); border-color: var(--warn-line); font-weight: 600; }
.chip.bad { color: var(--bad); background: var(--bad-bg); border-color: var(--bad-line); font-weight: 600; }
.chip.good { color: var(--good); background: var(--good-bg); border-color: var(--good-line); font-weight: 600; }
.posn { font-family: var(--mono); font-size: 12px; color: var(--faint); margin-left: auto; overflow-wrap: anywhere; }
.call { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 10px; background: #fff; border: 1px solid #c8cfd9; border-radius: 6px; padding: 7px 10px; font-size: 13.5px; }
.cname { font-family: var(--mono); font-weight: 700; }
.method { font-family: var(--mono); font-size: 12px; font-weight: 700; background: #eceff3; border-radius: 4px; padding: 0 5px; }
.findings { list-style: none; margin: 10px 0 0; padding: 0; font-size: 13.5px; }
.findings li { position: relative; padding: 2px 0 2px 18px; }
.findings li::before { content: "\25B2"; position: absolute; left: 1px; top: 6px; font-size: 9px; color: var(--warn); }
.findings .check { font-family: var(--mono); font-weight: 700; margin-right: 6px; }
.findings .posn { margin-left: 6px; }
details.more { border-top: 1px dashed var(--line); padding: 10px 0 2px; }
details.more summary { cursor: pointer; color: var(--accent); font-weight: 600; font-size: 13.5px; }
p.left { color: var(--muted); font-size: 13px; margin: 8px 0 0; }
.ptime { font-weight: 400; color: var(--muted); }
p.also { color: var(--muted); font-size: 12.5px; margin: -4px 0 8px; overflow-wrap: anywhere; }
footer { margin-top: 24px; text-align: center; font-size: 12px; color: var(--faint); }
@media (max-width: 720px) {
  main { padding: 16px 10px; }
  .dephead { grid-template-columns: minmax(0, 1fr); gap: 8px; }
  .figure { text-align: left; }
  svg.mini { margin-left: 0; }
  .pathhead { flex-direction: column; gap: 2px; }
}
</style>
</head>
<body>
<svg width="0" height="0" style="position:absolute" aria-hidden="true"><defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#b42318"/><rect width="2.5" height="6" fill="#e8877c"/></pattern></defs></svg>
<main>
<header class="top">
<h1>idemlint map</h1>
<p class="sub">{{with .Packages}}Packages <code>{{.}}</code> · {{end}}{{.NDeps}} · {{.NPaths}}</p>
<p class="legend"><b>Calls per request</b>: the most calls one request makes to a dependency that slows down, the attempts of the retry layers around the call (boxes, outermost outside) multiplied. <span class="w">Warm colour</span>: unbounded attempts, no jitter, no timeout, no idempotency key.</p>
<p class="kinds">Layers: <span class="k-loop">hand loop</span><span class="k-library">library</span><span class="k-client">self-retrying client</span><span class="k-framework">framework redelivery</span></p>
{{- if .Deps}}{{with .Chart}}
<div class="chart">
<h2>{{$.ChartTitle}}</h2>
<svg class="chart" viewBox="0 0 {{.W}} {{.H}}" width="{{.W}}" height="{{.H}}" role="img" aria-label="worst-case calls per request of each dependency, logarithmic scale">
<text class="c-tick" x="{{.NameX}}" y="12" text-anchor="end">calls per request (log scale)</text>
{{- range .Ticks}}
<line class="c-grid" x1="{{.X}}" x2="{{.X}}" y1="17" y2="{{$.Chart.H}}"/><text class="c-tick" x="{{.X}}" y="12" text-anchor="middle">{{.Label}}</text>
{{- end}}
{{- range .Rows}}
<a href="{{.Href}}"><title>{{.Full}}</title><text class="c-name" x="{{$.Chart.NameX}}" y="{{.TextY}}" text-anchor="end">{{.Name}}</text><rect class="{{.Bar.Fill}}" x="{{$.Chart.BarX}}" y="{{.Y}}" width="{{.Bar.W}}" height="14" rx="2"/><text class="c-val {{.Sev}}" x="{{.LabelX}}" y="{{.TextY}}">{{.Bar.Label}}</text></a>
{{- end}}
</svg>
</div>
{{- end}}{{end}}
{{- if .Index}}
<details class="index"><summary>All {{.NDeps}}, worst first</summary>
<ol>
{{- range .Deps}}
<li><a href="#{{.ID}}">{{.Name}}</a> <span class="iw {{.Sev}}">{{.Big}}</span></li>
{{- end}}
</ol>
</details>
{{- end}}
</header>
{{- if not .Deps}}
<p class="empty">No outbound dependency was found in the packages analysed.</p>
{{- end}}
{{- range .Deps}}
<section class="dep" id="{{.ID}}" data-name="{{.Name}}" data-kind="{{.Kind}}" data-worst="{{.Worst.Calls}}">
<div class="dephead {{.Sev}}">
<div class="ident">
<h2>{{.Name}}</h2>
<p class="meta">{{with .Kind}}<span class="kind">{{.}}</span>{{end}}{{.Meta}}</p>
</div>
<div class="figure">
<p class="worst"><span class="big">{{.Big}}</span> <span class="unit">{{.Unit}}</span></p>
<svg class="mini" width="240" height="10" viewBox="0 0 240 10" aria-hidden="true"><rect class="track" width="240" height="10" rx="2"/><rect class="{{.Bar.Fill}}" width="{{.Bar.W}}" height="10" rx="2"/></svg>
<p class="timeout">timeout per attempt: <b{{if .NoLimit}} class="none"{{end}}>{{.Timeout}}</b></p>
<p class="timeout">longest wait: <b class="time{{if .Endless}} none{{end}}">{{.Time}}</b></p>
</div>
</div>
<div class="paths">
{{- range .Shown}}{{template "path" .}}{{end}}
{{- if .More}}
<details class="more"><summary>{{.MoreN}}</summary>
{{- range .More}}{{template "path" .}}{{end}}
{{- if .Left}}
<p class="left">{{.Left}}</p>
{{- end}}
</details>
{{- end}}
</div>
</section>
{{- end}}
<footer>idemlint map · worst case per request from the retry layers the analysis sees; a layer outside the packages analysed multiplies it further</footer>
</main>
</body>
</html>
{{define "path"}}
<div class="path" data-entry="{{.Entry.Name}}" data-worst="{{.Worst.Calls}}">
<div class="pathhead">
<div class="route">{{with .Entry.Kind}}<span class="ekind">{{.}}</span>{{end}}
{{- range $i, $s := .Chain}}{{if $i}} <span class="arrow">→</span> {{end}}<span class="step" title="{{$s.Full}}{{with $s.Posn}} at {{.}}{{end}}">{{$s.Short}}</span>{{end}}</div>
<div class="pworst {{.Sev}}">{{.Product}}{{with .Time}}<span class="ptime">, {{.}}</span>{{end}}</div>
</div>
{{- with .Also}}
<p class="also">{{.}}</p>
{{- end}}
<div class="nest">
{{- range .Layers}}
<div class="layer {{.Class}}" data-kind="{{.Kind}}" data-attempts="{{.Attempts}}" data-wait="{{.Wait}}" data-deadline="{{.Deadline}}">
<div class="lhead"><span class="factor">{{.Factor}}</span><span class="lkind">{{.KindText}}</span><span class="lname" title="{{.Scope}}">{{or .Name .Scope}}</span><span class="chips"><span class="chip {{.TriesWarn}}">{{.Tries}}</span><span class="chip {{.WaitWarn}}">{{.WaitText}}</span><span class="chip">{{.Limit}}</span></span><span class="posn">{{.Posn}}</span></div>
{{- end}}
<div class="call"><span class="cname">{{.Call.Name}}</span>{{with .Method}}<span class="method">{{.}}</span>{{end}}
{{- if eq .Key "sent"}}<span class="chip good">key sent</span>{{else if and (eq .Key "none") .Layers}}<span class="chip warn" title="a state-changing request retried without an idempotency key">no key</span>{{else if eq .Key "none"}}<span class="chip" title="a state-changing request without an idempotency key, not retried here">no key</span>{{end -}}
<span class="chip{{if .NoLimit}} warn{{end}}">timeout: {{.Timeout}}</span><span class="posn">{{.Call.Posn}}</span></div>
{{- range .Layers}}
</div>
{{- end}}
</div>
{{- with .Findings}}
<ul class="findings">
{{- range .}}
<li>{{if .URL}}<a class="check" href="{{.URL}}">{{.Check}}</a>{{else}}<span class="check">{{.Check}}</span>{{end}}<span class="msg">{{.Message}}</span><span class="posn">{{.Posn}}</span></li>
{{- end}}
</ul>
{{- end}}
</div>
{{- end}}
`
