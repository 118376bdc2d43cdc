package engine

import (
	"os"
	"testing"
)

// longTests reports whether the long variants of the differential tests
// run, over more records and queries than the default run:
//
//	AMLSCREEN_LONG_TESTS=1 go test -count=1 -timeout 30m ./engine
//
// CI's nightly run sets it (docs/TESTING.md); the default sizes keep the
// package under 20 seconds.
func longTests() bool { return os.Getenv("AMLSCREEN_LONG_TESTS") != "" }

// skipUnderRace skips a differential test under the race detector: it
// searches from one goroutine, so the detector, ten times slower, finds
// nothing there that TestScoredConcurrent, TestSearchNeverSeesHalfAChangeSet
// and the small differential tests do not. The main run, without the
// detector, runs it.
func skipUnderRace(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("one goroutine against the brute-force reference: runs without the race detector in the main run")
	}
}
