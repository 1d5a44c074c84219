// Package procmem measures a command's wall and CPU time and its memory: the peak resident set of its
// largest process (what /usr/bin/time reports) and the peak of the sum over its whole process
// tree, sampled from /proc (Linux), which is what a machine must hold when a driver runs
// several tool processes at once.
package procmem

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// A Usage is what one run of a command cost.
type Usage struct {
	Wall    time.Duration
	CPU     time.Duration    // user and system time of the command and every process it waited for
	MaxRSS  int64            // bytes: the largest single process of the tree
	TreeRSS int64            // bytes: the largest sum over the tree at one sample (0 where /proc is missing)
	ByName  map[string]int64 // bytes: the largest sampled process of each command name
	Code    int              // exit code
}

// Interval is how often the tree is sampled.
var Interval = 20 * time.Millisecond

// Run runs cmd (not yet started) in a process group of its own and measures it. An error is
// returned only when the command cannot be started or waited for; a non-zero exit is a Code.
func Run(cmd *exec.Cmd) (Usage, error) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return Usage{}, err
	}
	pgid := cmd.Process.Pid
	done := make(chan struct{})
	sampled := make(chan Usage)
	go func() {
		u := Usage{ByName: make(map[string]int64)}
		tick := time.NewTicker(Interval)
		defer tick.Stop()
		for {
			if s := sample(pgid, u.ByName); s > u.TreeRSS {
				u.TreeRSS = s
			}
			select {
			case <-done:
				sampled <- u
				return
			case <-tick.C:
			}
		}
	}()
	err := cmd.Wait()
	wall := time.Since(start)
	close(done)
	u := <-sampled
	u.Wall = wall
	if cmd.ProcessState == nil {
		return u, err
	}
	u.Code = cmd.ProcessState.ExitCode()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		u.MaxRSS = ru.Maxrss * 1024 // kilobytes on Linux
		u.CPU = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	if _, ok := err.(*exec.ExitError); ok {
		err = nil
	}
	return u, err
}

var pageSize = int64(os.Getpagesize())

// sample sums the resident set of the processes of a process group, and raises each
// command's peak in byName.
func sample(pgid int, byName map[string]int64) int64 {
	paths, _ := filepath.Glob("/proc/[0-9]*/stat")
	var sum int64
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ... rss is field 24; comm may hold spaces.
		i := bytes.LastIndexByte(b, ')')
		j := bytes.IndexByte(b, '(')
		if i < 0 || j < 0 || j > i {
			continue
		}
		f := bytes.Fields(b[i+1:])
		if len(f) < 22 {
			continue
		}
		if g, _ := strconv.Atoi(string(f[2])); g != pgid {
			continue
		}
		rss, _ := strconv.ParseInt(string(f[21]), 10, 64)
		rss *= pageSize
		sum += rss
		name := string(b[j+1 : i])
		byName[name] = max(byName[name], rss)
	}
	return sum
}
