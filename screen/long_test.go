package screen

import "os"

// longTests reports whether the long variants of the differential and
// crash tests run, over more records and queries than the default run:
//
//	AMLSCREEN_LONG_TESTS=1 go test -count=1 -timeout 30m ./screen
//
// CI's nightly run sets it (docs/TESTING.md); the default sizes keep the
// package under 20 seconds.
func longTests() bool { return os.Getenv("AMLSCREEN_LONG_TESTS") != "" }

// agreeQueries is the number of generated queries world.agrees compares
// with a fresh build and the brute-force matcher. The brute-force matcher
// costs most of the package's CPU; engine's differential tests hold it to
// a fresh build over many more queries, so 12 by default and 90 with
// AMLSCREEN_LONG_TESTS=1.
func agreeQueries() int {
	if longTests() {
		return 90
	}
	return 12
}
