package bench

import "os"

// longTests reports whether the long variants run: the quality test on
// every record of the real OFAC list instead of a sample.
//
//	AMLSCREEN_LONG_TESTS=1 go test -count=1 ./bench
//
// CI's nightly run sets it (docs/TESTING.md).
func longTests() bool { return os.Getenv("AMLSCREEN_LONG_TESTS") != "" }
