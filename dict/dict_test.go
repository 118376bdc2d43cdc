package dict

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"testing"
)

// TestEditDistanceCountsASwapAsOneEdit pins the rule of SEMANTICS.md
// (fuzzy_search): optimal-string-alignment Damerau–Levenshtein.
func TestEditDistanceCountsASwapAsOneEdit(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"schmitd", "schmidt", 1},   // one swap
		{"schmtid", "schmidt", 2},   // the swapped pair is not adjacent to the original
		{"ab", "ba", 1},             // a swap
		{"ca", "abc", 3},            // OSA: no substring is edited twice (true Damerau says 2)
		{"ivnaova", "ivanova", 1},   // a swap inside
		{"kitten", "sitting", 3},    // plain Levenshtein
		{"putin", "puttin", 1},      // an insertion
		{"марья", "мария", 1},       // runes, not bytes
		{"", "abc", 3},              //
		{"abcdef", "badcfe", 3},     // three swaps
		{"vladimir", "vladimir", 0}, //
	} {
		if got := EditDistance(c.a, c.b); got != c.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := EditDistance(c.b, c.a); got != c.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d (not symmetric)", c.b, c.a, got, c.want)
		}
	}
}

func TestDistance(t *testing.T) {
	words := []string{"", "a", "ab", "abc", "putin", "puttin", "vladimir", "wladimir", "vladimirovich", "ivanova", "ivnaova",
		"kitten", "sitting", "мария", "марья", "ab", "ba", "abcdef", "azced", "badcfe", "schmidt", "schmitd", "schmtid", "ca",
		"acbdfe", "bacdef"}
	for _, a := range words {
		for _, b := range words {
			want := EditDistance(a, b)
			for max := 0; max <= 3; max++ {
				got := Distance([]rune(a), []rune(b), max)
				exp := want
				if exp > max {
					exp = max + 1
				}
				if got != exp {
					t.Errorf("Distance(%q, %q, %d) = %d, want %d", a, b, max, got, exp)
				}
			}
		}
	}
}

// TestDistanceRandom compares the banded Distance with the full matrix on
// random strings over a small alphabet, where swaps, repeats and long
// tokens (past the 64-rune stack buffer) are common.
func TestDistanceRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		a := randomWord(rng, 1+rng.IntN(12))
		b := mutate(rng, a, rng.IntN(4))
		if rng.IntN(50) == 0 {
			a = randomWord(rng, 60+rng.IntN(20))
			b = mutate(rng, a, rng.IntN(4))
		}
		want := EditDistance(a, b)
		for max := 0; max <= 3; max++ {
			if got := Distance([]rune(a), []rune(b), max); got != min(want, max+1) {
				t.Fatalf("Distance(%q, %q, %d) = %d, want %d", a, b, max, got, min(want, max+1))
			}
		}
	}
}

func TestDistanceAllocatesNothing(t *testing.T) {
	a, b := []rune("vladimirovich"), []rune("vladmiirovich")
	if n := testing.AllocsPerRun(100, func() { Distance(a, b, 2) }); n != 0 {
		t.Errorf("Distance allocates %v times per call", n)
	}
}

func randomWord(rng *rand.Rand, n int) string {
	const alphabet = "abcdeя"
	r := make([]rune, n)
	for i := range r {
		r[i] = []rune(alphabet)[rng.IntN(len([]rune(alphabet)))]
	}
	return string(r)
}

// mutate applies n random edits (insert, delete, substitute, swap) to w.
func mutate(rng *rand.Rand, w string, n int) string {
	r := []rune(w)
	for range n {
		switch op := rng.IntN(4); {
		case op == 0:
			i := rng.IntN(len(r) + 1)
			r = slices.Insert(r, i, rune('a'+rng.IntN(5)))
		case op == 1 && len(r) > 0:
			i := rng.IntN(len(r))
			r = slices.Delete(r, i, i+1)
		case op == 2 && len(r) > 0:
			r[rng.IntN(len(r))] = rune('a' + rng.IntN(5))
		case op == 3 && len(r) > 1:
			i := rng.IntN(len(r) - 1)
			r[i], r[i+1] = r[i+1], r[i]
		}
	}
	return string(r)
}

// TestLookupFindsExactlyTheTokensWithinRadius compares Lookup with a scan of
// every token: the bigram filter must never drop a token within the radius.
func TestLookupFindsExactlyTheTokensWithinRadius(t *testing.T) {
	words := []string{"putin", "puttin", "putina", "butin", "vladimir", "wladimir", "vladimirovich", "ivan", "ivanov", "ivanova",
		"ivnaov", "aaaa", "aaab", "ab", "ba", "abc", "мария", "марья", "li", "lee", "jo", "joe", "x", "anna", "hanna",
		"schmidt", "abcd", "badc"}
	d := New()
	for _, w := range words {
		d.Index(d.Intern(w))
	}
	d.Intern("notindexed")
	queries := append(slices.Clone(words), "putn", "vladimr", "ivanoff", "aa", "zzz", "notindexed", "schmitd", "schmtid",
		"upitn", "ivanvoa", "cdab", "bdac")
	for _, q := range queries {
		for r := 0; r <= 2; r++ {
			var want []string
			for _, w := range words {
				if EditDistance(q, w) <= r {
					want = append(want, w)
				}
			}
			if got := lookupAll(t, d, q, r); !slices.Equal(got, sorted(want)) {
				t.Errorf("Lookup(%q, %d) = %v, want %v", q, r, got, sorted(want))
			}
		}
	}
}

// TestLookupLosslessRandom is the proof of Lookup's bigram threshold in
// numbers: over many random tokens and random edits of them (swaps
// included, which destroy three bigrams where the other edits destroy at
// most two), Lookup returns exactly what a scan of every token does.
func TestLookupLosslessRandom(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	// Each query is checked against EditDistance over every word, so the
	// cost grows with both; AMLSCREEN_LONG_TESTS=1 runs 3000 words and
	// 1500 queries.
	n, nQueries := 1000, 600
	switch {
	case os.Getenv("AMLSCREEN_LONG_TESTS") != "":
		n, nQueries = 3000, 1500
	case raceEnabled:
		// One goroutine: the detector finds nothing and runs it ten
		// times slower; the plain run checks the full size.
		n, nQueries = 300, 150
	case testing.Short():
		n, nQueries = 800, 400
	}
	d := New()
	var words []string
	seen := map[string]bool{}
	for len(words) < n {
		base := randomWord(rng, 2+rng.IntN(9))
		for _, w := range []string{base, mutate(rng, base, 1), mutate(rng, base, 2)} {
			if w != "" && !seen[w] {
				seen[w] = true
				words = append(words, w)
				d.Index(d.Intern(w))
			}
		}
	}
	for i := range nQueries {
		q := mutate(rng, words[rng.IntN(len(words))], rng.IntN(4))
		if q == "" {
			continue
		}
		r := 1 + i%2
		var want []string
		for _, w := range words {
			if EditDistance(q, w) <= r {
				want = append(want, w)
			}
		}
		if got := lookupAll(t, d, q, r); !slices.Equal(got, sorted(want)) {
			t.Fatalf("Lookup(%q, %d):\n got %v\nwant %v", q, r, got, sorted(want))
		}
	}
}

// lookupAll returns the sorted tokens Lookup finds, checking each
// reported distance against EditDistance.
func lookupAll(t *testing.T, d *Dict, q string, r int) []string {
	t.Helper()
	var got []string
	d.Lookup(q, r, func(id uint32, dist int) {
		if want := EditDistance(q, d.Token(id)); dist != want {
			t.Errorf("Lookup(%q): %q at distance %d, want %d", q, d.Token(id), dist, want)
		}
		got = append(got, d.Token(id))
	})
	return sorted(got)
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	sort.Strings(s)
	if s == nil {
		s = []string{}
	}
	return s
}

// TestLookupThresholdNeedsThree shows that the old threshold (two bigrams
// per edit) is lossy once a swap is an edit: "bacdef" has 7 distinct padded
// bigrams and shares 4 of them with "abcdef" (^b, ba and ac are lost), so
// 7 − 2·1 = 5 would drop a token one swap away; 7 − 3·1 = 4 keeps it.
func TestLookupThresholdNeedsThree(t *testing.T) {
	d := New()
	d.Index(d.Intern("abcdef"))
	got := lookupAll(t, d, "bacdef", 1)
	if fmt.Sprint(got) != "[abcdef]" {
		t.Errorf("Lookup(bacdef, 1) = %v, want [abcdef]", got)
	}
}
