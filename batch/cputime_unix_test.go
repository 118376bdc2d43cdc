//go:build unix

package batch

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time (user and system) the process has used,
// so that BenchmarkRun can report what a row costs whatever other jobs
// load the machine; ok is false where it cannot be read.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
