package book

import (
	"fmt"
	"slices"
	"testing"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/screen"
)

// pairsOf returns the candidate pairs of customers and records as a
// sorted list of "customer record".
func pairsOf(custs []int32, recs [][]int32) []string {
	var out []string
	for k, c := range custs {
		for _, r := range recs[k] {
			out = append(out, fmt.Sprint(c, " ", r))
		}
	}
	slices.Sort(out)
	return out
}

// TestEssentialCutLosesNoCandidate makes the posting lists' cut under the
// statistics of the database before the change set (the changed records
// left out) and uses it under those after, as serve's hook does from one
// change set to the next: the candidates equal those of every customer
// reached, with the cut made again (the default tolerance, which the move
// exceeds) and with a tolerance wide enough to keep it (the customers of
// words that moved past it taken whole), and from the statistics of a
// tenth of the records. Each list's cut one entry short (a unit that may
// be essential taken as never) loses candidates: the test can tell a cut
// too aggressive.
func TestEssentialCutLosesNoCandidate(t *testing.T) {
	if raceEnabled && !longTests() {
		t.Skip("a comparison with every customer reached, ten times slower under the race detector: the main run checks it, and TestMatchChangedEqualsBatch runs the same workers under the detector")
	}
	w := newWorld(t)
	all, old := indexBefore(t, w)
	// far: a tenth of the records, statistics far from the database's.
	var tenth []*record.Record
	for i := 0; i < len(all); i += 10 {
		tenth = append(tenth, all[i])
	}
	far := screen.New(tenth, w.sources, "v0").Index()
	cfg := Config{Match: "scored", Fuzzy: 1}
	customers := readBook(t, w.book, cfg)
	sc, err := cfg.Screener(nil)
	if err != nil {
		t.Fatal(err)
	}
	pairs := func(rv *scoredReverse, ix *engine.Index, recs []*record.Record) []string {
		st := ix.ScoredStats()
		defer st.Release()
		return pairsOf(rv.scoredPairs(recs, st, 0))
	}
	ref := newScoredReverse(customers, sc)
	ref.ess.off = true
	want := pairs(ref, w.full, w.changed)
	if len(want) == 0 {
		t.Fatal("no candidates")
	}
	defer func(tol engine.ScoredTolerance) { essentialTolerance = tol }(essentialTolerance)
	for _, c := range []struct {
		name  string
		from  *engine.Index
		tol   engine.ScoredTolerance
		stale bool
		short bool // each list's cut one entry short
	}{
		{"default tolerance", old, essentialTolerance, false, false},
		{"wide tolerance", old, engine.ScoredTolerance{DF: 0.2, Live: 0.1}, false, false},
		{"far statistics", far, essentialTolerance, false, false},
		{"cut one entry short", w.full, essentialTolerance, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			essentialTolerance = c.tol
			rv := newScoredReverse(customers, sc)
			pairs(rv, c.from, w.changed[:1]) // makes the cut
			rv.ess.stale = c.stale
			if c.short {
				for id, k := range rv.ess.cut {
					rv.ess.cut[id] = max(k-1, 0)
				}
			}
			moved, _ := rv.driftedCounts(w.full.ScoredStats())
			drifted := len(moved)
			got := pairs(rv, w.full, w.changed)
			cut := 0
			for id := range rv.post {
				cut += len(rv.post[id]) - int(rv.ess.cut[id])
			}
			t.Logf("%d candidate pairs, %d words moved past the tolerance, %d entries after the cuts", len(got), drifted, cut)
			if c.stale {
				if slices.Equal(got, want) {
					t.Error("a cut one entry short loses no candidate: the test cannot tell a cut too aggressive")
				}
				return
			}
			if !slices.Equal(got, want) {
				missing := 0
				for _, p := range want {
					if _, ok := slices.BinarySearch(got, p); !ok {
						missing++
					}
				}
				t.Errorf("%d candidate pairs, want %d (%d missing)", len(got), len(want), missing)
			}
			if cut == 0 {
				t.Error("the cut leaves out no entry")
			}
		})
	}
}

// indexBefore returns every record of w's database and the serving index
// of the database before its change set (w.changed removed).
func indexBefore(t *testing.T, w *world) ([]*record.Record, *engine.Index) {
	t.Helper()
	var all []*record.Record
	if _, err := w.db.LoadAll(func(r *record.Record) error {
		all = append(all, r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	changed := map[string]bool{}
	for _, r := range w.changed {
		changed[r.ID] = true
	}
	before := slices.DeleteFunc(slices.Clone(all), func(r *record.Record) bool { return changed[r.ID] })
	return all, screen.New(before, w.sources, "v0").Index()
}
