//go:build !unix

package batch

import "time"

// processCPU is not measured here; BenchmarkRun then leaves out cpu-us/row.
func processCPU() (time.Duration, bool) { return 0, false }
