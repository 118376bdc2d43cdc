package book

import (
	"runtime"
	"testing"
)

// BenchmarkEssentialCut measures what the scored reverse index's cut
// costs (essential.go): "make" bounds every customer and orders the
// posting lists, as the first change set does and one whose statistics
// moved past the tolerance; "drift" reads every customer word's count of
// records to find those that moved, as every other change set does.
func BenchmarkEssentialCut(b *testing.B) {
	w := loadBench(b)
	cfg := Config{Match: "scored", Fuzzy: 1}
	m, err := newMatcher(w.customers, cfg)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := m.match(w.recs[:1], nil, "v1", w.db); err != nil { // builds the reverse index
		b.Fatal(err)
	}
	sc, err := cfg.Screener(nil)
	if err != nil {
		b.Fatal(err)
	}
	rv := m.scoredReverse(sc)
	st := w.db.ScoredStats()
	defer st.Release()
	workers := max(1, runtime.GOMAXPROCS(0))
	run := func(name string, fn func()) {
		b.Run(name, func(b *testing.B) {
			runtime.GC()
			cpu := cpuNow()
			for b.Loop() {
				fn()
			}
			b.ReportMetric((cpuNow()-cpu).Seconds()/float64(b.N), "cpu-s/op")
		})
	}
	rv.ess.mu.Lock()
	defer rv.ess.mu.Unlock()
	run("make", func() { rv.makeCut(st, sc.MinScore, workers) })
	run("drift", func() {
		if d, _ := rv.driftedCounts(st); len(d) != 0 {
			b.Fatalf("%d words moved under the same statistics", len(d))
		}
	})
}
