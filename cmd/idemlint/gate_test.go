//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A heavy package waits for the light ones running, runs alone, and goes before the light
// ones that arrive while it waits. (File locks are per open file, so the goroutines here hold
// them as separate processes would.)
func TestGateHeavyRunsAlone(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	light1, err := pass(dir, false)
	require.NoError(t, err)
	light2, err := pass(dir, false)
	require.NoError(t, err, "light packages share the gate")

	events := make(chan string, 4)
	enter := func(name string, heavy bool, hold time.Duration) {
		f, err := pass(dir, heavy)
		if !assert.NoError(t, err) {
			return
		}
		events <- name + " in"
		time.Sleep(hold)
		events <- name + " out"
		f.Close()
	}
	go enter("heavy", true, 200*time.Millisecond)
	time.Sleep(100 * time.Millisecond) // the heavy one is waiting
	go enter("light3", false, 0)
	time.Sleep(100 * time.Millisecond)
	select {
	case e := <-events:
		t.Fatalf("%s while two light packages hold the gate", e)
	default:
	}
	light1.Close()
	light2.Close()
	var order []string
	for range 4 {
		select {
		case e := <-events:
			order = append(order, e)
		case <-time.After(10 * time.Second):
			t.Fatalf("gate stuck after %v", order)
		}
	}
	assert.Equal(t, []string{"heavy in", "heavy out", "light3 in", "light3 out"}, order)
}

// The estimate reads the package's sources and its imports' facts files from its vet
// configuration; a configuration it cannot read is light.
func TestGateEstimate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := filepath.Join(dir, "a.go")
	vetx := filepath.Join(dir, "dep.vetx")
	require.NoError(t, os.WriteFile(src, make([]byte, 5<<20), 0o644))
	require.NoError(t, os.WriteFile(vetx, make([]byte, 1<<20), 0o644))
	cfg := filepath.Join(dir, "vet.cfg")
	require.NoError(t, os.WriteFile(cfg, []byte(`{"GoFiles":["`+src+`"],"PackageVetx":{"dep":"`+vetx+`"}}`), 0o644))
	assert.Equal(t, int64(28<<20+20*5<<20+3<<20), estimate(cfg))
	assert.GreaterOrEqual(t, estimate(cfg), int64(heavyBytes))
	assert.Zero(t, estimate(filepath.Join(dir, "missing.cfg")))
}
