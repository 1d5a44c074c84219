package mappage

import (
	"cmp"
	"encoding/json"
	"regexp"
	"slices"
)

// Build groups the paths that the depmap analyzer reported by dependency (once each, however
// many times they were reported; entries that reach a call the same way as one path), worst
// first, and
// puts on each path the findings made at a place on it: a call on the way, the remote call, or
// a layer.
func Build(packages []string, reached []Reached, findings []Finding) *Map {
	m := &Map{Packages: packages, Dependencies: []Dependency{}}
	index := make(map[string]int)
	seen := make(map[string]bool)
	for _, r := range reached {
		// A package and its test variant report the same paths.
		if k, err := json.Marshal(r); err == nil && seen[string(k)] {
			continue
		} else if err == nil {
			seen[string(k)] = true
		}
		i, ok := index[r.Dep]
		if !ok {
			i = len(m.Dependencies)
			index[r.Dep] = i
			m.Dependencies = append(m.Dependencies, Dependency{Name: r.Dep, Kind: r.Kind})
		}
		p := r.Path
		if p.Layers == nil {
			p.Layers = []Layer{}
		}
		p.Findings = on(p, findings)
		m.Dependencies[i].Paths = append(m.Dependencies[i].Paths, p)
	}
	for i := range m.Dependencies {
		d := &m.Dependencies[i]
		slices.SortStableFunc(d.Paths, func(a, b Path) int {
			return cmp.Or(compareWorst(a.Worst, b.Worst), cmp.Compare(a.Entry.Name, b.Entry.Name), cmp.Compare(a.Call.Posn, b.Call.Posn))
		})
		calls := make(map[string]bool)
		for _, p := range d.Paths {
			calls[p.Call.Posn] = true
		}
		d.Calls = len(calls)
		d.Paths = merge(d.Paths)
		d.Worst = d.Paths[0].Worst
	}
	slices.SortStableFunc(m.Dependencies, func(a, b Dependency) int {
		return cmp.Or(compareWorst(a.Worst, b.Worst), cmp.Compare(a.Name, b.Name))
	})
	return m
}

// merge keeps one path for each way to the dependency, the first of those that reach the same
// call through the same layers with the same key, and lists the other entries under it (Also),
// with their findings.
func merge(paths []Path) []Path {
	var out []Path
	index := make(map[string]int)
	for _, p := range paths {
		k := Way(p)
		i, ok := index[k]
		if !ok {
			index[k] = len(out)
			out = append(out, p)
			continue
		}
		q := &out[i]
		q.Also = append(append(q.Also, p.Entry), p.Also...)
		for _, f := range p.Findings {
			if !slices.ContainsFunc(q.Findings, func(g Finding) bool { return g.Check == f.Check && g.Posn == f.Posn && g.Message == f.Message }) {
				q.Findings = append(q.Findings, f)
			}
		}
	}
	return out
}

// Way identifies how a path reaches its dependency: the call, the key and the layers.
func Way(p Path) string {
	k := p.Call.Posn + "|" + p.Key
	for _, l := range p.Layers {
		k += "|" + l.Posn
	}
	return k
}

// Merge is merge over paths of any dependencies, as the depmap analyzer reports them: one per
// way to each dependency, the other entry points under it.
func Merge(reached []Reached) []Reached {
	var out []Reached
	index := make(map[string]int)
	for _, r := range reached {
		k := r.Dep + "|" + Way(r.Path)
		if i, ok := index[k]; ok {
			out[i].Path.Also = append(append(out[i].Path.Also, r.Path.Entry), r.Path.Also...)
			continue
		}
		index[k] = len(out)
		out = append(out, r)
	}
	return out
}

// compareWorst orders worst cases, worst first: unbounded, then by the number of calls; an
// unknown count (a cap set at run time) comes after every count that multiplies (2 or more)
// and before a single call.
func compareWorst(a, b Worst) int { return -cmp.Compare(rank(a), rank(b)) }

func rank(w Worst) float64 {
	switch {
	case w.Calls == "unbounded":
		return 1e18
	case w.N > 0:
		return float64(w.N)
	}
	return 1.5
}

// on returns the findings whose line is the line of a call on p or of one of its layers.
func on(p Path, findings []Finding) []Finding {
	lines := make(map[string]bool)
	add := func(posn string) {
		if l := line(posn); l != "" {
			lines[l] = true
		}
	}
	add(p.Call.Posn)
	for _, s := range p.Steps {
		add(s.Call)
	}
	for _, l := range p.Layers {
		add(l.Posn)
	}
	var out []Finding
	for _, f := range findings {
		if slices.ContainsFunc(out, func(g Finding) bool { return g.Check == f.Check && g.Posn == f.Posn && g.Message == f.Message }) {
			continue // reported for the package and its test variant
		}
		if f.Check == "nestedretry" && len(p.Layers) < 2 {
			continue // layers that multiply: not on a path through fewer
		}
		if lines[line(f.Posn)] || slices.ContainsFunc(f.Related, func(r string) bool { return lines[line(r)] }) {
			out = append(out, f)
		}
	}
	return out
}

// line is a position's file:line, without its column.
func line(posn string) string {
	if m := posnLine.FindStringSubmatch(posn); m != nil {
		return m[1]
	}
	return ""
}

var posnLine = regexp.MustCompile(`^(.*?:\d+)(?::\d+)?$`)

// Posns calls f on every position in the map, to replace it by what f returns (a path
// relative to the working directory).
func (m *Map) Posns(f func(string) string) {
	for i := range m.Dependencies {
		for j := range m.Dependencies[i].Paths {
			p := &m.Dependencies[i].Paths[j]
			p.Entry.Posn = f(p.Entry.Posn)
			for k := range p.Also {
				p.Also[k].Posn = f(p.Also[k].Posn)
			}
			p.Call.Posn = f(p.Call.Posn)
			for k := range p.Steps {
				p.Steps[k].Posn, p.Steps[k].Call = f(p.Steps[k].Posn), f(p.Steps[k].Call)
			}
			for k := range p.Layers {
				p.Layers[k].Posn = f(p.Layers[k].Posn)
			}
			for k := range p.Findings {
				p.Findings[k].Posn = f(p.Findings[k].Posn)
				for l := range p.Findings[k].Related {
					p.Findings[k].Related[l] = f(p.Findings[k].Related[l])
				}
			}
		}
	}
}
