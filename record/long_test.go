package record_test

import "os"

// longTests reports whether the long variants of the tests run, over
// every record of the real lists rather than a sample:
//
//	AMLSCREEN_LONG_TESTS=1 go test -count=1 ./record
//
// CI's nightly run sets it (docs/TESTING.md).
func longTests() bool { return os.Getenv("AMLSCREEN_LONG_TESTS") != "" }
