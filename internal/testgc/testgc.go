// Package testgc sets a test binary's garbage collection target to
// Percent, so that the suite spends less CPU collecting. A test file
// imports it for that effect alone:
//
//	import _ "github.com/amlscreen/amlscreen/internal/testgc"
//
// Tests allocate much and keep little, and many wait on disks, children
// and the browser while the collector's idle workers take the free CPU;
// at GOGC=100 that was a tenth to a fifth of a package's CPU. The larger
// target trades memory, which the tests have to spare, for it. A binary
// that runs benchmarks, or a GOGC the environment sets, keeps the
// runtime's own setting: the benchmarks report what the product does. A
// test that measures memory reads the live heap after runtime.GC, which
// the target does not change.
package testgc

import (
	"os"
	"runtime/debug"
	"strings"
)

// Percent is the collection target of a test binary, as GOGC.
const Percent = 400

func init() {
	if os.Getenv("GOGC") != "" || benchmarks(os.Args[1:]) {
		return
	}
	debug.SetGCPercent(Percent)
}

// benchmarks reports whether the test binary's arguments select
// benchmarks (-test.bench with a pattern), read before the testing
// package parses them.
func benchmarks(args []string) bool {
	for i, a := range args {
		a = strings.TrimPrefix(a, "-")
		switch {
		case a == "-":
			return false // the arguments after -- are the tests' own
		case a == "-test.bench" || a == "test.bench":
			return i+1 < len(args) && args[i+1] != ""
		case strings.HasPrefix(a, "-test.bench=") || strings.HasPrefix(a, "test.bench="):
			return !strings.HasSuffix(a, "=")
		}
	}
	return false
}
