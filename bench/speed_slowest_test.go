package bench

import (
	"testing"

	"github.com/amlscreen/amlscreen/query"
)

// TestSpeedSlowest: with Slowest set, each fuzzy level lists that many
// queries, slowest first, each with its text and hits, and none
// slower than the level's p99 is left out; without it, none.
func TestSpeedSlowest(t *testing.T) {
	rep, err := Speed(SpeedConfig{Records: 2000, Queries: 60, Seed: 3, Match: query.Scored, Slowest: 4})
	if err != nil {
		t.Fatal(err)
	}
	for name, m := range map[string]ModeReport{"exact": rep.Exact, "fuzzy1": rep.Fuzzy1, "fuzzy2": rep.Fuzzy2} {
		if len(m.Slowest) != 4 {
			t.Fatalf("%s: %d slowest queries, want 4", name, len(m.Slowest))
		}
		for i, q := range m.Slowest {
			if q.Names == "" || q.Kind == "" || q.Hits < 0 || q.Micros <= 0 {
				t.Errorf("%s: slowest[%d] = %+v", name, i, q)
			}
			key, prev := q.Micros, 0.0
			if q.CPUMicros > 0 {
				key = q.CPUMicros
			}
			if i > 0 {
				prev = m.Slowest[i-1].Micros
				if m.Slowest[i-1].CPUMicros > 0 {
					prev = m.Slowest[i-1].CPUMicros
				}
				if key > prev {
					t.Errorf("%s: slowest[%d] took %.1f µs, more than slowest[%d] (%.1f µs)", name, i, key, i-1, prev)
				}
			}
		}
		// The p99 of 60 queries is the second slowest: the fourth slowest
		// is no slower.
		p99 := m.P99Micros
		last := m.Slowest[3].Micros
		if m.Slowest[3].CPUMicros > 0 {
			p99, last = m.CPUP99Micros, m.Slowest[3].CPUMicros
		}
		if last > p99 {
			t.Errorf("%s: the fourth slowest took %.1f µs, more than the p99 %.1f µs", name, last, p99)
		}
	}
	rep, err = Speed(SpeedConfig{Records: 500, Queries: 10, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Fuzzy2.Slowest != nil {
		t.Errorf("Slowest 0: %d slowest queries listed", len(rep.Fuzzy2.Slowest))
	}
}
