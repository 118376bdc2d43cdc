package engine

import (
	"math"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/query"
)

// TestScoredFactsEvidenceOfHits checks the facts a reverse index bounds a
// check against a record with: every record Search hits passes
// the check's filters and gets from Evidence exactly the evidence its
// reason shows, never more than MaxEvidence; a check without a sources
// filter is ruled out of a record exactly when passesFilters rules it
// out. It also checks that the data has hits whose logit before their
// evidence falls short of the threshold, the ones a bound that left the
// evidence out (one step too tight) would drop.
func TestScoredFactsEvidenceOfHits(t *testing.T) {
	skipUnderRace(t)
	t.Parallel()
	recs := generated(400, 5)
	ix := NewIndex(recs)
	ix.PrepareScored()
	facts := make([]*ScoredRecordFacts, len(recs))
	for i, r := range recs {
		facts[i] = NewScoredRecordFacts(r)
	}
	var hits, lifted, filtered, withEvidence int
	for _, q := range diffQueries(recs, 600, 13) {
		if q.Names == "" {
			continue
		}
		q.Match = query.Scored
		_, _, f, err := ScoredCheck(q)
		if err != nil {
			continue
		}
		c, err := compile(q)
		if err != nil {
			t.Fatal(err)
		}
		floor := logitFloor(c.minScore)
		byID := map[string]int{}
		for i, r := range recs {
			byID[r.ID] = i
			add, ok := f.Evidence(facts[i])
			if add > f.MaxEvidence()+1e-12 {
				t.Fatalf("%+v on %s: evidence %v above the most, %v", q, r.ID, add, f.MaxEvidence())
			}
			if c.Sources == nil && ok != passesFilters(c, r) {
				t.Fatalf("%+v on %s: Evidence passes %v, passesFilters %v", q, r.ID, ok, passesFilters(c, r))
			}
			if !ok {
				filtered++
			}
		}
		res, err := ix.Search(q)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range res.Hits {
			hits++
			add, ok := f.Evidence(facts[byID[h.ID]])
			if !ok {
				t.Fatalf("%+v hits %s (%.4f) but Evidence rules the record out", q, h.ID, h.Score)
			}
			want := 0.0
			if h.Reason != nil {
				for _, e := range h.Reason.Evidence {
					want += e.Contribution
				}
			}
			if math.Abs(add-want) > 1e-9 {
				t.Fatalf("%+v on %s: Evidence %v, the hit's reason %v", q, h.ID, add, want)
			}
			if add != 0 {
				withEvidence++
			}
			if h.Reason != nil && add > 0 && h.Score < 1 && h.Reason.Logit-add < floor {
				lifted++
			}
		}
	}
	t.Logf("%d hits, %d with evidence, %d lifted to the threshold by it; %d pairs filtered out", hits, withEvidence, lifted, filtered)
	if hits == 0 || withEvidence == 0 || lifted == 0 || filtered == 0 {
		t.Fatalf("the data tests nothing: %d hits, %d with evidence, %d lifted, %d filtered", hits, withEvidence, lifted, filtered)
	}
}

// TestReachesRecord checks the bound of one record: its evidence moves
// the target by exactly what it adds, and a record pairing every word on
// its own at similarity 1 is kept whatever its gain unless its evidence is
// against it (a pairing of the very same words scores 1).
func TestReachesRecord(t *testing.T) {
	t.Parallel()
	_, st := generatedStats(t, 300, 3)
	var ws []ScoredWordStat
	for _, w := range []string{"ivan", "petrov", "sergeyevich"} {
		ws = append(ws, st.WordStat(w, false))
	}
	const evMax = 2.0
	var b ScoredBound
	st.BoundFactsInto(&b, ws, 0, evMax)
	all := uint64(7)
	for _, add := range []float64{-1.3, 0, 0.3, evMax} {
		target := b.base - add
		if !b.ReachesRecord(target, 1, 0, add) {
			t.Errorf("add %v: a gain at the target does not reach it", add)
		}
		if b.ReachesRecord(math.Nextafter(target, math.Inf(-1)), 1, 0, add) {
			t.Errorf("add %v: a gain just below the target reaches it", add)
		}
		if got, want := b.ReachesRecord(-100, all, all, add), add >= 0; got != want {
			t.Errorf("add %v: every word paired whole at no gain: reaches %v, want %v", add, got, want)
		}
		if b.ReachesRecord(-100, all, all&^2, add) {
			t.Errorf("add %v: two words of three paired whole at no gain reach the target", add)
		}
	}
	if got, want := b.ReachesRecord(b.target, 1, 0, evMax), b.Reaches(b.target, 1); got != want {
		t.Errorf("with the most evidence: ReachesRecord %v, Reaches %v", got, want)
	}
	// The rarest word is essential whatever the target: a pairing of the
	// very same words pairs it on its own.
	k := 0
	for j := range ws {
		if ws[j].w > ws[k].w {
			k = j
		}
	}
	st.BoundFactsInto(&b, ws, 0.999999, 0)
	if b.Essential&(1<<k) == 0 {
		t.Errorf("rarest word %d not essential at a threshold no name reaches: %b", k, b.Essential)
	}
}

// TestWordStatOfEqualsWordStat checks that a word weighed from the
// ScoredWordInfo a reverse index keeps weighs as WordStat weighs it, in
// syllabic names and others.
func TestWordStatOfEqualsWordStat(t *testing.T) {
	t.Parallel()
	recs, st := generatedStats(t, 300, 3)
	words := []string{"ivan", "li", "a", "ltd", "llc", "kim", "zzqx", "mohammed", "12", "j", "김", "wang"}
	for _, r := range recs[:100] {
		words = append(words, strings.Fields(strings.ToLower(r.Name))...)
	}
	for _, w := range words {
		_, info := ScoredWordKeysInfo(w)
		for _, syllabic := range []bool{false, true} {
			if got, want := st.WordStatOf(w, info, syllabic), st.WordStat(w, syllabic); got != want {
				t.Fatalf("%q (syllabic %v): WordStatOf %+v, WordStat %+v", w, syllabic, got, want)
			}
		}
	}
}
