//go:build !linux

package cputime

import "time"

// Thread cannot read a thread's CPU clock here: callers report
// wall-clock time only.
func Thread() (d time.Duration, ok bool) { return 0, false }
