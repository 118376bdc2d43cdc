package store

import "os"

// longTests reports whether the long variant of the crash test runs, with
// more kills timed inside the commit:
//
//	AMLSCREEN_LONG_TESTS=1 go test -count=1 -run Crash ./store
//
// CI's nightly run sets it (docs/TESTING.md).
func longTests() bool { return os.Getenv("AMLSCREEN_LONG_TESTS") != "" }
