//go:build unix

package server

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user and system) the process has used, so that
// a load test can report cost per request independently of other load on
// the machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
