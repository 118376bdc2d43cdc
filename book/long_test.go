package book

import "os"

// longTests reports whether the long variants of the crash and
// differential tests run, over larger books and change sets:
//
//	AMLSCREEN_LONG_TESTS=1 go test -count=1 -timeout 30m ./book
//
// CI's nightly run sets it (docs/TESTING.md); the default sizes keep the
// package under 20 seconds.
func longTests() bool { return os.Getenv("AMLSCREEN_LONG_TESTS") != "" }
