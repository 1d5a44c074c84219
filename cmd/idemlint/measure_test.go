package main

import (
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/idemlint/idemlint/internal/procmem"
)

// measure runs a command in dir and returns what it cost.
func measure(t *testing.T, dir, name string, args ...string) procmem.Usage {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	u, err := procmem.Run(cmd)
	require.NoError(t, err)
	return u
}
