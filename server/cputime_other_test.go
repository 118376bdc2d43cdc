//go:build !unix

package server

import "time"

// cpuTime is unknown here; the load test then reports no CPU figures.
func cpuTime() time.Duration { return 0 }
