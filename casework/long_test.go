package casework

import "os"

// longTests reports whether the long variant of the crash test runs, with
// more kill points:
//
//	AMLSCREEN_LONG_TESTS=1 go test -count=1 -run Crash ./casework
//
// CI's nightly run sets it (docs/TESTING.md).
func longTests() bool { return os.Getenv("AMLSCREEN_LONG_TESTS") != "" }
