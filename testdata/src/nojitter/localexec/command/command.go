// Package command runs programs of this machine through an interface that tests can fake:
// New is a variable its tests replace, which by default hands back the *exec.Cmd itself.
package command

import (
	"io"
	"os/exec"
)

// Interface is what the package's users call on a command.
type Interface interface {
	Run() error
	Output() ([]byte, error)
	CombinedOutput() ([]byte, error)
	StdoutPipe() (io.ReadCloser, error)
}

// New wraps cmd; tests set it to return a fake.
var New = func(cmd *exec.Cmd) Interface {
	return cmd
}
