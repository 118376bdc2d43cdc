package engine

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCompareRankedOrdersIDsAsStrings pins the ids' prefix shortcut of
// compareRanked: records that tie on score and rank come in the order of
// their ids as strings, whatever the prefixes hold.
func TestCompareRankedOrdersIDsAsStrings(t *testing.T) {
	ids := []string{
		"", "A", "AB", "AB\x00", "AB\x00\x00", "AB\x01", "ABC", "BA", "AML00621147", "AML00621148",
		"AML0062114", "AML00621147X", "0123456789abcdef", "0123456789abcdefg", "0123456789abcdeg",
		"0123456789abcdef\x00", "0123456789abcdee\xff", "é", "e\xff", "\xff\xff\xff\xff\xff\xff\xff\xff\xff",
	}
	for _, a := range ids {
		for _, b := range ids {
			ka := rankedKey{score: 0.9, pre: idPrefix(a), id: a}
			kb := rankedKey{score: 0.9, pre: idPrefix(b), id: b}
			if got, want := compareRanked(ka, kb), cmp.Compare(a, b); got != want {
				t.Errorf("compareRanked(%q, %q) = %d, want %d", a, b, got, want)
			}
		}
	}
}

// TestGallopIsBinarySearch checks gallop against slices.BinarySearch on
// ascending lists of every length to 70, for every value around them.
func TestGallopIsBinarySearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n <= 70; n++ {
		for range 5 {
			s := make([]uint32, n)
			v := uint32(0)
			for i := range s {
				v += uint32(rng.IntN(3)) // repeats too
				s[i] = v
			}
			for x := uint32(0); x <= v+2; x++ {
				gi, gf := gallop(s, x)
				bi, bf := slices.BinarySearch(s, x)
				if gi != bi || gf != bf {
					t.Fatalf("gallop(%v, %d) = %d, %v; slices.BinarySearch: %d, %v", s, x, gi, gf, bi, bf)
				}
			}
		}
	}
}
