package engine

import (
	"errors"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/query"
)

// boundWorld is 3,000 generated records for the tests that only search
// them: the strict work bound, the candidate cap, the cancelled heavy
// search and warm's ordinals.
func boundWorld() *searched {
	return generatedWorld(3000, 5)
}

// TestScoredRepeatedWordsWorkBound: a scored query of one common word
// repeated scores only the name strings long enough to pair its words
// (an edge covers at most two query words and at least one record word),
// not every name string holding the word, and answers as the brute-force
// matcher does.
func TestScoredRepeatedWordsWorkBound(t *testing.T) {
	skipUnderRace(t)
	// 2,000 records of seed 7: few names repeat al, so the reference,
	// which tries every pairing, pairs 32 query words quickly.
	recs := generated(2000, 7)
	ix, br := NewIndex(recs), NewBrute(recs)
	long, holding := 0, 0
	for _, r := range recs {
		for _, ns := range NameStrings(r) {
			words := strings.Fields(ns.Text)
			if len(words) >= 8 {
				long++
			}
			for _, w := range words {
				if strings.EqualFold(w, "al") || strings.HasPrefix(strings.ToLower(w), "al-") {
					holding++
					break
				}
			}
		}
	}
	for _, names := range []string{
		strings.TrimSpace(strings.Repeat("al ", 32)),
		strings.TrimSpace(strings.Repeat("al-al ", 16)),
		strings.TrimSpace(strings.Repeat("al-company ", 16)),
	} {
		q := query.Query{Names: names, Match: query.Scored}
		res, err := ix.Search(q)
		if err != nil {
			t.Fatal(err)
		}
		want, err := br.Search(q)
		if err != nil {
			t.Fatal(err)
		}
		if res.Total != want.Total {
			t.Errorf("%.20s…: %d hits, brute force %d", names, res.Total, want.Total)
		}
		// 32 query words need name strings of 16 words or more (fewer when
		// legal forms are optional): a few times those of 8 words or more,
		// where every name string holding al was scored before (about 300
		// at this size).
		if res.work > 4*long {
			t.Errorf("%.20s…: scored %d name strings, more than 4×%d of 8 words or more (%d hold al)", names, res.work, long, holding)
		}
		t.Logf("%.20s…: scored %d name strings; %d have 8 words or more, %d hold al", names, res.work, long, holding)
	}
}

// TestRepeatedWordPairingWorkBound: a strict search_all of one common word
// repeated 32 times at fuzzy 2 looks up each record token once per
// distinct query word, so it costs no more than the word alone (which
// pairs every candidate), not 32 times that; and it answers as the
// brute-force matcher does.
func TestRepeatedWordPairingWorkBound(t *testing.T) {
	skipUnderRace(t)
	w := boundWorld()
	ix, br := w.ix, w.br()
	one, err := ix.Search(query.Query{SearchAll: "the", Fuzzy: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{2, 32} {
		q := query.Query{SearchAll: strings.TrimSpace(strings.Repeat("the ", n)), Fuzzy: 2}
		res, err := ix.Search(q)
		if err != nil {
			t.Fatal(err)
		}
		want, err := br.Search(q)
		if err != nil {
			t.Fatal(err)
		}
		if res.Total != want.Total {
			t.Errorf("the×%d: %d hits, brute force %d", n, res.Total, want.Total)
		}
		if res.work > one.work {
			t.Errorf("the×%d: %d tokens looked up, more than the %d of the word alone", n, res.work, one.work)
		}
		t.Logf("the×%d: %d tokens looked up (the alone: %d), %d hits", n, res.work, one.work, res.Total)
	}
}

// TestScoredCandidateCap: a scored query whose candidates exceed the cap
// is refused with a ParamError naming its text parameter, never answered
// in part; under the cap it is answered in full.
func TestScoredCandidateCap(t *testing.T) {
	ix := boundWorld().ix
	q := query.Query{Names: "mohammed al", Fuzzy: 2, Match: query.Scored, MinScore: 0.01}
	full, err := ix.Search(q)
	if err != nil || full.work < 2 {
		t.Fatalf("%v, %v", full, err)
	}
	defer func(n int) { maxScoredCandidates = n }(maxScoredCandidates)
	maxScoredCandidates = full.work - 1
	res, err := ix.Search(q)
	var pe *query.ParamError
	if !errors.As(err, &pe) || pe.Param != "names" || res != nil {
		t.Errorf("over the cap: %v, %v; want a ParamError on names", res, err)
	}
	maxScoredCandidates = 10 * full.work
	if res, err := ix.Search(q); err != nil || res.Total != full.Total {
		t.Errorf("under the cap: %v, %v; want %d hits", res, err, full.Total)
	}
}
