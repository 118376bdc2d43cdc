package engine

import (
	"math"
	"math/rand/v2"
	"testing"
)

// twinShape is a query of words drawn from a small vocabulary against a
// name string of record words, with one edge per (query word, record
// word) pair the table values: repeated query words are twins.
func twinShape(r *rand.Rand, m, n, vocab int) (*nameShape, []edge) {
	qw := make([]int, m)
	for j := range qw {
		qw[j] = r.IntN(vocab)
	}
	kw := make([]int, n)
	for k := range kw {
		kw[k] = r.IntN(vocab + 2)
	}
	miss := make([]float64, vocab)
	for i := range miss {
		miss[i] = 0.5 + r.Float64()
	}
	value := map[[2]int]float64{}
	sh := &nameShape{m: m, n: n, lambda: 1}
	for j := range m {
		sh.qMiss = append(sh.qMiss, miss[qw[j]])
	}
	for range n {
		sh.kMiss = append(sh.kMiss, 0.3)
	}
	var edges []edge
	for j := range m {
		for k := range n {
			key := [2]int{qw[j], kw[k]}
			v, ok := value[key]
			if !ok {
				v = math.NaN()
				if r.IntN(3) > 0 {
					v = r.Float64()*3 - 0.5
				}
				value[key] = v
			}
			if math.IsNaN(v) {
				continue
			}
			kind := uint8(kindEdit)
			if qw[j] == kw[k] {
				kind = kindExact
			}
			edges = append(edges, edge{q0: int8(j), q1: -1, k0: int8(k), k1: -1, kind: kind, sim: 0.9, weight: 1, value: v})
		}
	}
	return sh, edges
}

// The search that keeps one order of interchangeable query words finds a
// pairing as good as trying every pairing does: over 800 random shapes,
// 3,000 with AMLSCREEN_LONG_TESTS=1.
func TestPairSearchTwinsAgreeWithBrute(t *testing.T) {
	skipUnderRace(t)
	shapes := 800
	if longTests() {
		shapes = 3000
	}
	r := rand.New(rand.NewPCG(5, 9))
	var ps pairSearch
	for i := range shapes {
		m, n := 1+r.IntN(7), 1+r.IntN(6)
		sh, edges := twinShape(r, m, n, 1+r.IntN(3))
		_, want := bestBrutePairing(sh, append([]edge(nil), edges...))
		ps.run(sh, append([]edge(nil), edges...))
		if len(edges) == 0 {
			continue
		}
		if math.Abs(ps.bestEv.logit-want.logit) > 1e-9 || ps.bestEv.exact != want.exact {
			t.Fatalf("case %d (m=%d n=%d): search %+v, every pairing %+v", i, m, n, ps.bestEv, want)
		}
	}
}

// A query that repeats one word costs the search combinations of the
// record words, not permutations: "al" 16 times against a name string of
// 8 words that all pair with it.
func TestPairSearchRepeatedWordWorkBound(t *testing.T) {
	const m, n = 16, 8
	sh := &nameShape{m: m, n: n, lambda: 1}
	var edges []edge
	for j := range m {
		sh.qMiss = append(sh.qMiss, 1)
		for k := range n {
			edges = append(edges, edge{q0: int8(j), q1: -1, k0: int8(k), k1: -1, kind: kindEdit, sim: 0.8, weight: 1, value: 0.5 + float64(k)/100})
		}
	}
	for k := 0; k < n; k++ {
		sh.kMiss = append(sh.kMiss, 0.3)
	}
	var ps pairSearch
	ps.run(sh, edges)
	// Without twins the search visits on the order of 16!/8! branches
	// before its bounds bite; with them, at most the subsets of 8 of the
	// 16 words in order, times their depth.
	if limit := 16 * (1 << 16); ps.steps > limit {
		t.Errorf("%d steps, want at most %d", ps.steps, limit)
	}
	if got := len(ps.best); got != n {
		t.Errorf("best pairing pairs %d words, want %d", got, n)
	}
}
