package main

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// The standalone driver runs go vet, which runs one tool process per CPU at once. Most packages
// are small, but a package with megabytes of (often generated) source, or one that imports the
// types of hundreds of packages, needs a few hundred megabytes: two of them at once, which is
// common since a package is analysed twice (for its facts, and with its tests for its
// diagnostics), doubled the driver's peak. The gate lets such a heavy package run alone: the
// tool processes of one standalone run share a lock, which a heavy package's process holds
// exclusively and every other one shared. A heavy package waiting for the lock goes first
// (light ones queue behind it), so that it is not starved.
//
// The gate is the standalone driver's: go vet -vettool=idemlint runs as go vet does.

// gateEnv names the directory of the lock files, set by the standalone driver for the tool
// processes of its run.
const gateEnv = "IDEMLINT_GATE"

// heavyBytes is the estimated heap above which a package is analysed alone. On stripe-go,
// whose root package holds 9 MB of Go source, that package's process peaks at about 210 MB
// and every other one under 115 MB.
const heavyBytes = 128 << 20

// estimate is the heap a tool process is expected to need for a package, from its vet
// configuration: about 20 bytes per byte of its Go source (syntax, types, SSA) and 3 per
// byte of its imports' facts files (which hold their types), over a base. On stripe-go's
// 456 processes it is within a third of the measured peak for every one over 80 MB (and
// overestimates the small ones).
func estimate(cfgFile string) int64 {
	data, err := os.ReadFile(cfgFile)
	if err != nil {
		return 0
	}
	var cfg struct {
		GoFiles     []string
		PackageVetx map[string]string
	}
	if json.Unmarshal(data, &cfg) != nil {
		return 0
	}
	size := func(name string) int64 {
		if fi, err := os.Stat(name); err == nil {
			return fi.Size()
		}
		return 0
	}
	est := int64(28 << 20)
	for _, f := range cfg.GoFiles {
		est += 20 * size(f)
	}
	for _, f := range cfg.PackageVetx {
		est += 3 * size(f)
	}
	return est
}

// enterGate waits at the standalone run's gate, if any, for the package of cfgFile; the lock
// is held until the process exits. Any error leaves the gate open: it bounds memory, it is
// not needed for a correct result.
func enterGate(cfgFile string) {
	if dir := os.Getenv(gateEnv); dir != "" {
		held, _ = pass(dir, estimate(cfgFile) >= heavyBytes)
	}
}

// held is the gate's file while its lock is held: open, and locked, until the process exits.
var held *os.File

// pass takes the gate in dir, alone when heavy, and returns its locked file. A waiting heavy
// package holds the turn, so that light packages arriving after it wait behind it.
func pass(dir string, heavy bool) (*os.File, error) {
	turn, err := os.OpenFile(filepath.Join(dir, "turn"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	defer turn.Close() // releases the turn once the gate is held
	gate, err := os.OpenFile(filepath.Join(dir, "gate"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := lock(turn, true); err != nil {
		gate.Close()
		return nil, err
	}
	if err := lock(gate, heavy); err != nil {
		gate.Close()
		return nil, err
	}
	return gate, nil
}
