//go:build !linux

package bench

import "time"

// threadCPU cannot read a thread's CPU clock here: bench speed reports
// wall-clock latencies only.
func threadCPU() (time.Duration, bool) { return 0, false }
