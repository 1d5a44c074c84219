package bench

import (
	"syscall"
	"testing"
	"time"
)

// cpuClock measures the CPU time of the process (all its threads, the garbage collector's
// included) over a benchmark loop and reports it per operation as cpu-ns/op. On a shared machine,
// where other processes take the CPU away, it varies much less than ns/op (wall time), which also
// counts the time the benchmark waited for a CPU.
type cpuClock struct{ start time.Duration }

func startCPU() cpuClock { return cpuClock{processCPU()} }

func (c cpuClock) report(b *testing.B) {
	if b.N > 0 {
		b.ReportMetric(float64(processCPU()-c.start)/float64(b.N), "cpu-ns/op")
	}
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
