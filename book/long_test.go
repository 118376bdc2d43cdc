package book

import (
	"os"
	"testing"
)

// longTests reports whether the long variants of the crash and
// differential tests run, over larger books and change sets:
//
//	AMLSCREEN_LONG_TESTS=1 go test -count=1 -timeout 30m ./book
//
// CI's nightly run sets it (docs/TESTING.md); the default sizes keep the
// package under 20 seconds.
func longTests() bool { return os.Getenv("AMLSCREEN_LONG_TESTS") != "" }

// skipLevelUnderRace skips a fuzzy level's subtest, other than keep, under
// the race detector. The tests that call it compare the book's indexes,
// built by concurrent workers, with scoring from one goroutine: one level
// runs the workers under the detector, and the plain run checks the others.
func skipLevelUnderRace(t *testing.T, fuzzy, keep int) {
	t.Helper()
	if raceEnabled && !longTests() && fuzzy != keep {
		t.Skipf("under the race detector only fuzzy %d runs: the comparison is from one goroutine and ten times slower; the plain run checks this level", keep)
	}
}

// worldQueries is the number of customers of the shared world's book that
// are derived from its records: 1,000, and 1,500 in the long run.
func worldQueries() int {
	if longTests() {
		return 1500
	}
	return 1000
}
