package dict

import (
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// sharedGrams counts the distinct padded bigrams of q that t holds too.
func sharedGrams(q, t string) (shared, distinct int) {
	in := map[[2]rune]bool{}
	forEachGram(t, func(a, b rune) { in[[2]rune{a, b}] = true })
	seen := map[[2]rune]bool{}
	forEachGram(q, func(a, b rune) {
		g := [2]rune{a, b}
		if seen[g] {
			return
		}
		seen[g] = true
		distinct++
		if in[g] {
			shared++
		}
	})
	return shared, distinct
}

// TestGramsLostHoldsAndIsTight checks Lookup's per-length threshold on
// random words and random edits of them: no token within radius edits
// lacks more of the query's distinct bigrams than gramsLost allows at its
// length difference, and at every radius and length difference some token
// lacks exactly that many, so a threshold one bigram higher would drop it.
// Words of distinct letters make each edit lose all it can.
func TestGramsLostHoldsAndIsTight(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 12))
	const letters = "abcdefghijklmnopqrstuvwxyzабвгдежзиклмнопрст"
	alphabet := []rune(letters)
	reached := map[[2]int]bool{} // {radius, delta} whose bound some token met
	for range 40000 {
		n := 3 + rng.IntN(8)
		perm := rng.Perm(len(alphabet))
		r := make([]rune, n)
		for i := range r {
			r[i] = alphabet[perm[i]]
		}
		q := string(r)
		// Fresh letters for insertions and substitutions keep the bigrams
		// an edit makes from standing in for those it loses.
		fresh := alphabet[perm[n]:]
		tr := []rune(q)
		for range 1 + rng.IntN(2) {
			c := fresh[rng.IntN(len(fresh))]
			switch op := rng.IntN(4); {
			case op == 0:
				i := rng.IntN(len(tr) + 1)
				tr = append(tr[:i], append([]rune{c}, tr[i:]...)...)
			case op == 1 && len(tr) > 1:
				i := rng.IntN(len(tr))
				tr = append(tr[:i], tr[i+1:]...)
			case op == 2:
				tr[rng.IntN(len(tr))] = c
			case op == 3 && len(tr) > 1:
				i := rng.IntN(len(tr) - 1)
				tr[i], tr[i+1] = tr[i+1], tr[i]
			}
		}
		tok := string(tr)
		dist := EditDistance(q, tok)
		delta := utf8.RuneCountInString(tok) - n
		shared, distinct := sharedGrams(q, tok)
		for radius := max(dist, 1); radius <= 2; radius++ {
			lost := distinct - shared
			if lost > gramsLost(radius, delta) {
				t.Fatalf("%q → %q (%d edits, %+d runes) loses %d bigrams, gramsLost(%d, %d) = %d", q, tok, dist, delta, lost, radius, delta, gramsLost(radius, delta))
			}
			if lost == gramsLost(radius, delta) {
				reached[[2]int{radius, delta}] = true
			}
		}
	}
	for radius := 1; radius <= 2; radius++ {
		for delta := -radius; delta <= radius; delta++ {
			if !reached[[2]int{radius, delta}] {
				t.Errorf("no token %+d runes long within %d edits loses gramsLost = %d bigrams: the bound is looser than it needs to be", delta, radius, gramsLost(radius, delta))
			}
		}
	}
}
