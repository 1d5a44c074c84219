package mappage

import (
	"strings"
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
		{Dep: "api", Kind: "HTTP", Path: path("Checkout", "a.go:30:10", nine, "a.go:28:2", "a.go:30:4")},
		{Dep: "api", Kind: "HTTP", Path: path("Checkout", "a.go:30:10", nine, "a.go:28:2", "a.go:30:4")}, // the test variant's copy
		{Dep: "queue", Kind: "SDK", Path: path("Handle", "b.go:7:2", unknown)},
	}
	findings := []Finding{
		{Check: "nestedretry", Posn: "a.go:30:2"},                               // the call's line, another column
		{Check: "notimeout", Posn: "c.go:1:1", Related: []string{"a.go:20:10"}}, // a related position on Refund's call
		{Check: "nojitter", Posn: "a.go:28:2"},                                  // the loop
		{Check: "keyinloop", Posn: "a.go:300:2"},                                // not on a path: a.go:30 is not a.go:300
		{Check: "nestedretry", Posn: "a.go:20:1"},                               // at Refund's call, but Refund has no layers to multiply
		{Check: "nojitter", Posn: "a.go:28:2"},                                  // the test variant's copy of the finding
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

// Entry points that reach one call through the same layers are one path with the others
// listed under it, and their findings with it.
func TestBuildMergesEntries(t *testing.T) {
	one := Worst{Calls: "6", N: 6, Timeout: "unknown"}
	var reached []Reached
	for _, e := range []string{"sdk.(*Projects).Get", "sdk.(*Projects).List", "sdk.(*Users).Get"} {
		p := Path{Entry: Func{Name: e, Kind: "exported"}, Call: Site{Name: "retryablehttp.Client.Do", Posn: "sdk/do.go:40:20"},
			Layers: []Layer{{Kind: "self-retrying client", Posn: "sdk/do.go:40:10", Attempts: "6", N: 6}}, Worst: one}
		reached = append(reached, Reached{Dep: "gitlab.example.com", Kind: "HTTP", Path: p})
	}
	// The same call outside the client's retries: another way.
	reached = append(reached, Reached{Dep: "gitlab.example.com", Kind: "HTTP", Path: Path{Entry: Func{Name: "sdk.Ping"}, Call: Site{Posn: "sdk/do.go:40:20"}, Worst: Worst{Calls: "1", N: 1}}})
	findings := []Finding{{Check: "notimeout", Posn: "sdk/do.go:40:20", Message: "no timeout"}}
	m := Build(nil, reached, findings)
	require.Len(t, m.Dependencies, 1)
	d := m.Dependencies[0]
	assert.Equal(t, 1, d.Calls)
	require.Len(t, d.Paths, 2)
	assert.Equal(t, "sdk.(*Projects).Get", d.Paths[0].Entry.Name)
	require.Len(t, d.Paths[0].Also, 2)
	assert.Equal(t, "sdk.(*Projects).List", d.Paths[0].Also[0].Name)
	assert.Len(t, d.Paths[0].Findings, 1, "the same finding once")
	assert.Empty(t, d.Paths[1].Also)

	page := render(t, m)
	i := strings.Index(page, `<p class="also">`)
	require.GreaterOrEqual(t, i, 0, "the other entries under the path")
	assert.Equal(t, `<p class="also">the same way from 2 other entry points: sdk.(*Projects).List, sdk.(*Users).Get</p>`, page[i:i+strings.Index(page[i:], "</p>")+4])
}
