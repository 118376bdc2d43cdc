package engine

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
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

// editSimReference is editSim as it was written before its costs were
// called directly: the reference the faster one must equal exactly.
func editSimReference(a, b []rune, arabic bool) float64 {
	la, lb := len(a), len(b)
	if la == 0 || lb == 0 {
		if la == lb {
			return 1
		}
		return 0
	}
	d0, d1, d2 := make([]float64, lb+1), make([]float64, lb+1), make([]float64, lb+1)
	sub, gap := subCost, gapCost
	if arabic {
		sub, gap = arabicSub, arabicGap
	}
	for j := 1; j <= lb; j++ {
		d1[j] = d1[j-1] + gap(b, j-1)
	}
	for i := 1; i <= la; i++ {
		d2[0] = d1[0] + gap(a, i-1)
		for j := 1; j <= lb; j++ {
			v := d1[j-1] + sub(a[i-1], b[j-1])
			if u := d1[j] + gap(a, i-1); u < v {
				v = u
			}
			if l := d2[j-1] + gap(b, j-1); l < v {
				v = l
			}
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] && a[i-1] != a[i-2] {
				if t := d0[j-2] + costSwap; t < v {
					v = t
				}
			}
			d2[j] = v
		}
		d0, d1, d2 = d1, d2, d0
	}
	return max(1-d1[lb]/float64(max(la, lb)), 0)
}

// TestEditSimEqualsReference checks editSim against editSimReference,
// bit for bit, on random words of the letters its costs treat apart
// (vowels, h, doubled letters, swaps), both cost tables, and words longer
// than its stack buffers.
func TestEditSimEqualsReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	letters := []rune("aeiouyhkgsctzdpbfvwjqxlrmné")
	word := func() []rune {
		w := make([]rune, rng.IntN(12))
		if rng.IntN(20) == 0 {
			w = make([]rune, 40+rng.IntN(10))
		}
		for i := range w {
			w[i] = letters[rng.IntN(len(letters))]
			if i > 0 && rng.IntN(5) == 0 {
				w[i] = w[i-1]
			}
		}
		return w
	}
	for range 5000 {
		a, b := word(), word()
		if rng.IntN(4) == 0 && len(a) > 1 { // a swap or an edit of a
			b = slices.Clone(a)
			i := rng.IntN(len(b) - 1)
			b[i], b[i+1] = b[i+1], b[i]
		}
		for _, arabic := range []bool{false, true} {
			if got, want := editSim(a, b, arabic), editSimReference(a, b, arabic); got != want {
				t.Fatalf("editSim(%q, %q, %v) = %v, want %v", string(a), string(b), arabic, got, want)
			}
		}
	}
}

// TestNameMemoAgreesWithScoreName checks scoreNameMemo against scoreName
// on every name string of a generated index and of names repeated by
// people and companies alike (whose pairings differ: a person's middle
// name left out earns a share of the completeness term), visiting each
// three times at floors that fall and rise, so that an entry whose
// pairing was not searched at a high floor is searched at a lower one.
func TestNameMemoAgreesWithScoreName(t *testing.T) {
	t.Parallel()
	recs := generated(1200, 29)
	for i, name := range []string{"John Quentin Smith", "John Smith", "Royal Star Trading", "Royal Star", "Kim Min Jun"} {
		for k, et := range []string{record.EntityIndividual, record.EntityEntity, record.EntityIndividual} {
			recs = append(recs, &record.Record{ID: fmt.Sprintf("M%d-%d", i, k), Name: name, EntityType: et})
		}
	}
	ix := NewIndex(recs)
	v := ix.acquire()
	defer v.release()
	scr, ref := new(scoredScratch), new(scoredScratch)
	queries := append(diffQueries(recs, 20, 37), query.Query{Names: "John Smith"}, query.Query{Names: "Royal Star"}, query.Query{Names: "Kim Min Jun"})
	floors := []float64{logitFloor(0.95), math.Inf(-1), logitFloor(0.82)}
	checked, read := 0, 0
	eachScoredQuery(v, queries, func(q query.Query, ss *scoredSeg, sq *scoredQuery) {
		scr.memo.reset()
		for _, floor := range floors {
			for ns := uint32(0); int(ns) < len(ss.nsRec); ns++ {
				before := len(scr.memo.ent)
				got, gotOK := ss.scoreNameMemo(sq, ns, scr, floor, &scr.memo)
				want, wantOK := ss.scoreName(sq, ns, ref, floor)
				if gotOK != wantOK || gotOK && (got != want || !slices.Equal(scr.ps.best, ref.ps.best)) {
					t.Fatalf("%q, name string %q (individual %v) at floor %g: memo %v %+v %v, scoreName %v %+v %v", q.Names, ss.nameTexts(ns),
						ss.et(ss.nsRec[ns]) == etIndividual, floor, gotOK, got, scr.ps.best, wantOK, want, ref.ps.best)
				}
				checked++
				if len(scr.memo.ent) == before {
					read++
				}
			}
		}
	})
	if read < checked/2 {
		t.Fatalf("%d of %d name strings read from the memo: it is not kept", read, checked)
	}
}
