package golangci

import (
	"testing"

	"github.com/golangci/plugin-module-register/register"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/idemlint/idemlint/analyzers"
	"github.com/idemlint/idemlint/analyzers/directive"
	"github.com/idemlint/idemlint/analyzers/keys"
	"github.com/idemlint/idemlint/analyzers/retryscope"
)

func TestSettings(t *testing.T) {
	p, err := New(map[string]any{
		"disable":            []any{"keyinloop"},
		"retryscope.helpers": []any{"example.com/x.Retry:0", "example.com/x.Client.Do:1"},
		"keys":               map[string]any{"names": "x-dedup-id"}, // as golangci-lint reads "keys.names"
	})
	require.NoError(t, err)
	t.Cleanup(func() {
		// Flags are global to the analyzers: restore them for other tests.
		retryscope.Analyzer.Flags.Lookup("helpers").Value.(interface{ Reset() }).Reset()
		keys.Analyzer.Flags.Lookup("names").Value.(interface{ Reset() }).Reset()
	})
	assert.Equal(t, "example.com/x.Retry:0,example.com/x.Client.Do:1", retryscope.Analyzer.Flags.Lookup("helpers").Value.String())
	assert.Equal(t, "x-dedup-id", keys.Analyzer.Flags.Lookup("names").Value.String())

	as, err := p.BuildAnalyzers()
	require.NoError(t, err)
	for _, a := range as {
		assert.NotEqual(t, "keyinloop", a.Name, "disabled analyzer still built")
	}
	assert.Equal(t, "typesinfo", p.GetLoadMode())
}

func TestBadSettings(t *testing.T) {
	for name, s := range map[string]map[string]any{
		"unknown analyzer":  {"nosuch.flag": "x"},
		"unknown flag":      {"keys.nosuch": "x"},
		"no dot":            {"helpers": "x"},
		"disable unknown":   {"disable": []any{"nosuch"}},
		"disable a model":   {"disable": []any{"retryscope"}},
		"bad value":         {"keys.names": []any{map[string]any{"a": 1}}},
		"nested unknown":    {"keys": map[string]any{"nosuch": "x"}},
		"bad helper syntax": {"retryscope.helpers": "no-index"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := New(s)
			assert.Error(t, err)
		})
	}
}

// Each check, and the directive analyzer, is also a linter of its own, so that golangci-lint
// names its rule after it.
func TestPerCheckLinters(t *testing.T) {
	reporting := append(analyzers.Checks(), directive.Analyzer)
	for _, a := range reporting {
		newPlugin, err := register.GetPlugin(a.Name)
		require.NoError(t, err, a.Name)
		p, err := newPlugin(map[string]any{"keys.names": "x-dedup-id"})
		require.NoError(t, err)
		as, err := p.BuildAnalyzers()
		require.NoError(t, err)
		require.Len(t, as, 1)
		assert.Equal(t, a.Name, as[0].Name)
		require.Len(t, as[0].Requires, len(a.Requires))
		for i, r := range a.Requires {
			assert.Same(t, r, as[0].Requires[i], "the same models, shared with the other linters")
		}
		_, err = newPlugin(map[string]any{"disable": []any{a.Name}})
		assert.Error(t, err, "disable makes no sense for one check")
	}
	keys.Analyzer.Flags.Lookup("names").Value.(interface{ Reset() }).Reset()
	all, err := register.GetPlugin("idemlint")
	require.NoError(t, err)
	p, err := all(nil)
	require.NoError(t, err)
	as, err := p.BuildAnalyzers()
	require.NoError(t, err)
	require.Len(t, as, len(reporting))
	for i, a := range reporting {
		assert.Equal(t, a.Name, as[i].Name)
	}

	p, err = all(map[string]any{"disable": []any{"directive"}})
	require.NoError(t, err)
	as, err = p.BuildAnalyzers()
	require.NoError(t, err)
	require.Len(t, as, len(analyzers.Checks()), "directive disabled")
	for _, a := range as {
		assert.NotEqual(t, "directive", a.Name)
	}
}
