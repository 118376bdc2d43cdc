//go:build !linux

package engine

import "time"

// threadCPU cannot read a thread's CPU clock here: the benchmarks report
// wall-clock time only.
func threadCPU() (time.Duration, bool) { return 0, false }
