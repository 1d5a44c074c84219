package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/idemlint/idemlint/internal/mappage"
)

// TestMap runs idemlint map on the test module: the provider's API, reached from Charge and
// Refund through the in-house retry helper, keyed on both, with keyinloop's finding on the
// path where the key is made per attempt.
func TestMap(t *testing.T) {
	t.Parallel()
	dir := shop(t)
	r := run(t, dir, bin, "map", "-format=json", "./...")
	require.Equal(t, exitClean, r.code, r.stderr)
	first := r.stdout
	var m mappage.Map
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &m), r.stdout)
	assert.Equal(t, []string{"./..."}, m.Packages)
	require.Len(t, m.Dependencies, 1, r.stdout)
	d := m.Dependencies[0]
	assert.Equal(t, "HTTP API called from example.com/shop/payments", d.Name)
	assert.Equal(t, "HTTP", d.Kind)
	assert.Equal(t, 2, d.Calls)
	// The helper takes its attempts as a parameter: the model says "variable", the count unknown.
	assert.Equal(t, mappage.Worst{Calls: "unknown", Timeout: "http.Client.Timeout", Time: "unknown"}, d.Worst)
	require.Len(t, d.Paths, 2)
	byEntry := make(map[string]mappage.Path)
	for _, p := range d.Paths {
		byEntry[p.Entry.Name] = p
		assert.Equal(t, "exported", p.Entry.Kind)
		assert.Equal(t, "POST", p.Method)
		assert.Equal(t, "sent", p.Key)
		require.Len(t, p.Layers, 1)
		assert.Equal(t, "retry helper", p.Layers[0].Kind)
		assert.Equal(t, "variable", p.Layers[0].Attempts)
		assert.Equal(t, "jittered", p.Layers[0].Wait)
		assert.Regexp(t, `^payments/payments\.go:\d+:\d+$`, p.Call.Posn, "positions are relative to the working directory")
	}
	charge, refund := byEntry["payments.Charge"], byEntry["payments.Refund"]
	require.Len(t, charge.Findings, 1)
	assert.Equal(t, "keyinloop", charge.Findings[0].Check)
	assert.Equal(t, "payments/payments.go:18:10", charge.Findings[0].Posn)
	assert.Contains(t, charge.Findings[0].URL, "docs/analyzers/keyinloop.md")
	assert.Empty(t, refund.Findings)

	// The page, written to a file.
	r = run(t, dir, bin, "map", "-o", "map.html", "./...")
	require.Equal(t, exitClean, r.code, r.stderr)
	assert.Contains(t, r.stderr, "map.html: 1 dependency")
	page := read(t, filepath.Join(dir, "map.html"))
	assert.Contains(t, page, "HTTP API called from example.com/shop/payments")
	assert.NotContains(t, page, "<script src")
	assert.NotContains(t, page, "<link")

	// A second run gives the same map (from go vet's cache, like the checks').
	r = run(t, dir, bin, "map", "-format=json", "./...")
	require.Equal(t, exitClean, r.code, r.stderr)
	assert.Equal(t, first, r.stdout)

	r = run(t, dir, bin, "map", "-format=svg", "./...")
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, "-format=svg: want html or json")
	r = run(t, dir, bin, "map")
	assert.Equal(t, exitUsage, r.code)
	r = run(t, dir, bin, "help", "map")
	assert.Equal(t, exitClean, r.code)
	assert.Contains(t, r.stdout, "Usage: idemlint map")
	_, err := os.Stat(filepath.Join(dir, "map.html"))
	require.NoError(t, err)
}
