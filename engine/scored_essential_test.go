package engine

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// essentialQueries are scored queries of a rare word of one record's name
// beside two of the most common words of the list, at low thresholds: the
// shape where essentialOrder leaves the common words' long lists out of
// the merge.
func essentialQueries(recs []*record.Record, n int) []query.Query {
	count := map[string]int{}
	for _, r := range recs {
		for _, w := range strings.Fields(strings.ToLower(r.Name)) {
			count[w]++
		}
	}
	var common []string
	for w, c := range count {
		if c >= len(recs)/200 && len(w) > 2 {
			common = append(common, w)
		}
	}
	slices.Sort(common)
	rng := rand.New(rand.NewPCG(11, 3))
	var out []query.Query
	for len(out) < n && len(common) >= 2 {
		r := recs[rng.IntN(len(recs))]
		var rare string
		for _, w := range strings.Fields(strings.ToLower(r.Name)) {
			if count[w] <= 2 && len(w) > 3 {
				rare = w
			}
		}
		if rare == "" {
			continue
		}
		a, b := common[rng.IntN(len(common))], common[rng.IntN(len(common))]
		out = append(out, query.Query{Names: rare + " " + a + " " + b, Fuzzy: len(out) % 3, Limit: 50,
			Match: query.Scored, MinScore: []float64{0.3, 0.5, 0.7}[len(out)%3]})
	}
	return out
}

// changedEssentials counts the queries whose essential words
// essentialOrder chose otherwise than by gain.
func changedEssentials(t *testing.T, ix *Index, queries []query.Query) int {
	t.Helper()
	changed := 0
	for _, q := range queries {
		c, err := compile(q)
		if err != nil {
			t.Fatal(err)
		}
		v := ix.acquire()
		segs, variants, _ := v.scoredVariants(c)
		for _, vr := range variants {
			sq := vr.segs[0]
			m := len(sq.words)
			target := logitFloor(c.minScore) - sq.evMax - model.Intercept + sq.lambda
			gain := make([]float64, m)
			order := make([]int, m)
			for j := range gain {
				target += sq.miss[j]
				gain[j], order[j] = sq.ub[j]+sq.miss[j], j
			}
			sortByGain(order, gain)
			rem := make([]float64, m+1)
			for i := m - 1; i >= 0; i-- {
				rem[i] = rem[i+1] + gain[order[i]]
			}
			if rem[0] < target {
				continue // only complete matches: essentialOrder is not asked
			}
			nEss := 0
			for nEss < m && rem[nEss] >= target {
				nEss++
			}
			got, gotN := segs[0].essentialOrder(sq, append([]int(nil), order...), gain, target, nEss)
			var g float64
			for _, j := range got[gotN:] {
				g += gain[j]
			}
			if gotN < m && g >= target {
				t.Errorf("%q: words %v left non-essential gain %.3f, not under the target %.3f", q.Names, got[gotN:], g, target)
			}
			if gotN != nEss || !sameInts(got[:gotN], order[:nEss]) {
				changed++
			}
		}
		v.release()
	}
	return changed
}

func sortByGain(order []int, gain []float64) {
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(gain[b], gain[a]) })
}

func sameInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[int]bool{}
	for _, x := range a {
		seen[x] = true
	}
	for _, x := range b {
		if !seen[x] {
			return false
		}
	}
	return true
}

// TestEssentialOrderAgreesWithBrute: queries of a rare word beside common
// ones, where essentialOrder merges the rare word's lists and only
// credits the common ones', answer exactly as the brute-force reference:
// 30 queries, 45 with AMLSCREEN_LONG_TESTS=1.
func TestEssentialOrderAgreesWithBrute(t *testing.T) {
	skipUnderRace(t)
	recs := generated(2000, 9)
	ix := NewIndex(recs)
	n := 30
	if longTests() {
		n = 45
	}
	queries := essentialQueries(recs, n)
	if changed := changedEssentials(t, ix, queries); changed < len(queries)/10 {
		t.Fatalf("essentialOrder changed the essential words of %d of %d queries: the test proves little", changed, len(queries))
	}
	if hits := scoredAgreesWithBrute(t, ix, recs, queries); hits == 0 {
		t.Fatal("no query had a hit: the test proves nothing")
	}
}

// TestNonEssentialBound: the set left out always adds up to less than the
// target and leaves a word that is not optional essential; of the sets
// that do, it holds the longest lists (checked against every set); and a
// set whose gains reach the target exactly is never left out (the bound
// one step too tight would drop the name strings holding only it).
func TestNonEssentialBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	for trial := range 3000 {
		m := 1 + rng.IntN(maxExactEssential)
		gain := make([]float64, m)
		size := make([]int, m)
		var must uint64
		for j := range m {
			gain[j] = float64(rng.IntN(40)) / 4
			size[j] = rng.IntN(1000)
			if rng.IntN(5) > 0 {
				must |= 1 << j
			}
		}
		// the target of a sum of some of the gains, so that sets reach
		// it exactly
		target := 0.0
		for j := range m {
			if rng.IntN(2) == 0 {
				target += gain[j]
			}
		}
		got := nonEssential(gain, size, must, 0, target)
		g, n := 0.0, 0
		for j := range m {
			if got&(1<<j) != 0 {
				g, n = g+gain[j], n+size[j]
			}
		}
		if got != 0 && (g >= target || must&^got == 0) {
			t.Fatalf("trial %d: gains %v must %b target %v: left out %b (gain %v)", trial, gain, must, target, got, g)
		}
		for set := uint64(1); set < 1<<m; set++ {
			sg, sn := 0.0, 0
			for j := range m {
				if set&(1<<j) != 0 {
					sg, sn = sg+gain[j], sn+size[j]
				}
			}
			if sg < target && must&^set != 0 && sn > n {
				t.Fatalf("trial %d: left out %b (lists %d), but %b fits with lists %d", trial, got, n, set, sn)
			}
		}
	}
	// Two words whose gains make the target exactly: the longer list
	// alone may go, both may not.
	if got := nonEssential([]float64{2, 3}, []int{100, 900}, 0b11, 0, 5); got != 0b10 {
		t.Errorf("gains 2+3 at target 5: left out %b, want 10", got)
	}
	// Beyond maxExactEssential words, the greedy choice keeps the same
	// rules.
	m := maxExactEssential + 5
	gain, size := make([]float64, m), make([]int, m)
	for j := range m {
		gain[j], size[j] = 1, j
	}
	got := nonEssential(gain, size, 1<<m-1, 0, 4)
	if bits := popcount(got); bits != 3 || got&(1<<(m-1)) == 0 {
		t.Errorf("greedy: left out %b, want the three longest lists", got)
	}
}

func popcount(x uint64) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}
