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
// with a fresh build, and bruteQueries the first of them it compares with
// the brute-force matcher too: 12 and 6 by default (the 6 each fuzzy
// level in both modes), 90 and 90 with AMLSCREEN_LONG_TESTS=1. The
// brute-force matcher costs most of the comparison, and what it finds
// beyond a fresh build is a fault of the matcher, which engine's
// differential tests look for over many more queries; a fault of the
// persisted index shows against the fresh build.
func agreeQueries() int {
	if longTests() {
		return 90
	}
	return 12
}

// bruteQueries is the number of agreeQueries' queries world.agrees also
// asks the brute-force matcher.
func bruteQueries() int {
	if longTests() {
		return 90
	}
	return 6
}
