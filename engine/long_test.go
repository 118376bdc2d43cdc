package engine

import "os"

// longTests reports whether the long variants of the differential tests
// run, over more records and queries than the default run:
//
//	AMLSCREEN_LONG_TESTS=1 go test -count=1 -timeout 30m ./engine
//
// CI's nightly run sets it (docs/TESTING.md); the default sizes keep the
// package under 20 seconds.
func longTests() bool { return os.Getenv("AMLSCREEN_LONG_TESTS") != "" }
