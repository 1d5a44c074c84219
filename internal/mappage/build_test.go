package mappage

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBuild(t *testing.T) {
	path := func(entry, call string, worst Worst, layers ...string) Path {
		p := Path{Entry: Func{Name: entry}, Call: Site{Name: "http.Client.Do", Posn: call}, Worst: worst}
		for _, l := range layers {
			p.Layers = append(p.Layers, Layer{Posn: l})
		}
		return p
	}
	nine := Worst{Calls: "9", N: 9, Timeout: "none"}
	one := Worst{Calls: "1", N: 1, Timeout: "none"}
	unknown := Worst{Calls: "unknown", Timeout: "none"}
	reached := []Reached{
		{Dep: "db", Kind: "SQL", Path: path("main", "a.go:5:3", one)},
		{Dep: "api", Kind: "HTTP", Path: path("Refund", "a.go:20:10", one)},
		{Dep: "api", Kind: "HTTP", Path: path("Checkout", "a.go:30:10", nine, "a.go:28:2")},
		{Dep: "api", Kind: "HTTP", Path: path("Checkout", "a.go:30:10", nine, "a.go:28:2")}, // the test variant's copy
		{Dep: "queue", Kind: "SDK", Path: path("Handle", "b.go:7:2", unknown)},
	}
	findings := []Finding{
		{Check: "nestedretry", Posn: "a.go:30:2"},                               // the call's line, another column
		{Check: "notimeout", Posn: "c.go:1:1", Related: []string{"a.go:20:10"}}, // a related position on Refund's call
		{Check: "nojitter", Posn: "a.go:28:2"},                                  // the loop
		{Check: "keyinloop", Posn: "a.go:300:2"},                                // not on a path: a.go:30 is not a.go:300
	}
	m := Build([]string{"./..."}, reached, findings)
	require.Len(t, m.Dependencies, 3)
	assert.Equal(t, []string{"api", "queue", "db"}, []string{m.Dependencies[0].Name, m.Dependencies[1].Name, m.Dependencies[2].Name},
		"worst first: 9, then unknown, then a single call")
	api := m.Dependencies[0]
	assert.Equal(t, 2, api.Calls)
	assert.Equal(t, nine, api.Worst)
	require.Len(t, api.Paths, 2, "the duplicate is dropped")
	assert.Equal(t, "Checkout", api.Paths[0].Entry.Name)
	var checks []string
	for _, f := range api.Paths[0].Findings {
		checks = append(checks, f.Check)
	}
	assert.Equal(t, []string{"nestedretry", "nojitter"}, checks)
	require.Len(t, api.Paths[1].Findings, 1)
	assert.Equal(t, "notimeout", api.Paths[1].Findings[0].Check)

	m.Posns(func(p string) string { return "x/" + p })
	assert.Equal(t, "x/a.go:30:10", m.Dependencies[0].Paths[0].Call.Posn)
	assert.Equal(t, "x/a.go:28:2", m.Dependencies[0].Paths[0].Layers[0].Posn)
	assert.Equal(t, "x/a.go:20:10", m.Dependencies[0].Paths[1].Findings[0].Related[0])

	empty := Build(nil, nil, findings)
	assert.NotNil(t, empty.Dependencies, "an empty list, not null, in the JSON")
}
