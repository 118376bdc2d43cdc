package engine

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// evidenceList is scoredList with the published dates of birth, genders
// and citizenships of real listed people (UN and OFAC entries), and one
// whose list gives the year only.
var evidenceIndex = sync.OnceValues(func() (*Index, *Brute) {
	recs := scoredList()
	for _, r := range recs {
		switch r.ID {
		case "putin":
			r.DateOfBirth, r.Gender, r.Citizenship = []string{"07/10/1952"}, record.GenderMale, []string{"RU"}
		case "soleimani":
			r.DateOfBirth, r.Gender, r.Citizenship = []string{"11/03/1957"}, record.GenderMale, []string{"Iran"}
		}
	}
	recs = append(recs, &record.Record{ID: "baghdadi", SourceID: "un", SourceType: "SANCTION", EntityType: record.EntityIndividual,
		Name: "AL-BAGHDADI, Abu Bakr", DateOfBirth: []string{"1971"}, Gender: record.GenderMale, Citizenship: []string{"IQ"}})
	return NewIndex(recs), NewBrute(recs)
})

// evidenceSearch runs q in scored mode through the index, the brute-force
// reference, ScoreRecord and ScoreUnindexed, which must agree, and returns
// the hit of id (nil when it is none).
func evidenceSearch(t *testing.T, q query.Query, id string) *Hit {
	t.Helper()
	ix, br := evidenceIndex()
	q.Match = query.Scored
	a, err := ix.Search(q)
	if err != nil {
		t.Fatalf("%+v: %v", q, err)
	}
	b, err := br.Search(q)
	if err != nil {
		t.Fatalf("%+v: brute: %v", q, err)
	}
	if fmt.Sprint(scoredKeys(a)) != fmt.Sprint(scoredKeys(b)) || a.Total != b.Total {
		t.Fatalf("%+v: index %v, brute %v", q, scoredKeys(a), scoredKeys(b))
	}
	h := hitOf(a, id)
	if hb := hitOf(b, id); h != nil && hb.Reason.Summary() != h.Reason.Summary() {
		t.Errorf("%+v: index says %q, brute %q", q, h.Reason.Summary(), hb.Reason.Summary())
	}
	one, ok, err := ix.ScoreRecord(q, id)
	if err != nil || ok != (h != nil) || ok && (one.Score != h.Score || one.Reason.Summary() != h.Reason.Summary()) {
		t.Errorf("%+v: ScoreRecord %v %+v (%v); Search %+v", q, ok, one, err, h)
	}
	un, ok, err := ix.ScoreUnindexed(q, ix.Get(id))
	if err != nil || ok != (h != nil) || ok && (un.Score != h.Score || un.Reason.Summary() != h.Reason.Summary()) {
		t.Errorf("%+v: ScoreUnindexed %v %+v (%v); Search %+v", q, ok, un, err, h)
	}
	return h
}

// TestScoredEvidence: the query's dob, gender and citizenship raise or
// lower the score of a record that has them, by how much they say, and
// match_reason names each piece; a dob that differs still drops the
// record, as the contract's filter does.
func TestScoredEvidence(t *testing.T) {
	for _, tc := range []struct {
		names, id        string
		dob, gender, cit string
		found            bool
		says             string // in the reason's summary
		up               bool   // the evidence raises the score
		nothing          bool   // no evidence: the name's score
	}{
		{names: "Vladimir Putin", id: "putin", dob: "07/10/1952", found: true, says: "; dob 1952-10-07 same (+", up: true},
		{names: "Vladimir Putin", id: "putin", dob: "00/10/1952", found: true, says: "; dob 1952-10 same month (+", up: true},
		{names: "Vladimir Putin", id: "putin", dob: "00/00/1952", found: true, says: "; dob 1952 same year (+", up: true},
		{names: "Vladimir Putin", id: "putin", dob: "07/10/1953"},
		{names: "Vladimir Putin", id: "putin", dob: "00/00/1951"},
		{names: "Vladimir Putin", id: "putin", gender: "male", found: true, says: "; gender same (+", up: true},
		{names: "Vladimir Putin", id: "putin", gender: "female", found: true, says: "; gender differs (-"},
		{names: "Vladimir Putin", id: "putin", cit: "ru", found: true, says: "; citizenship RU same (+", up: true},
		{names: "Vladimir Putin", id: "putin", cit: "UA", found: true, says: "; citizenship UA differs (-"},
		{names: "Vladimir Putin", id: "putin", dob: "07/10/1952", gender: "female", found: true,
			says: "; dob 1952-10-07 same (+0.0"},
		{names: "Qasem Soleimani", id: "soleimani", cit: "IR", found: true, says: "; citizenship IR same (+0.00)", up: true},
		{names: "Qasem Soleimani", id: "soleimani", cit: "US", found: true, says: "; citizenship US differs (-"},
		{names: "Abu Bakr al-Baghdadi", id: "baghdadi", dob: "28/07/1971", found: true, says: "; dob 1971 same year (+", up: true},
		{names: "Abu Bakr al-Baghdadi", id: "baghdadi", dob: "28/07/1972"},
		{names: "John Smith", id: "smith", dob: "01/01/1960", gender: "male", cit: "GB", found: true, nothing: true},
	} {
		q := query.Query{Names: tc.names, Fuzzy: 1, DOB: tc.dob, Gender: tc.gender, Citizenship: tc.cit, MinScore: 0.05}
		h := evidenceSearch(t, q, tc.id)
		if (h != nil) != tc.found {
			t.Errorf("%+v: found %v, want %v", q, h != nil, tc.found)
			continue
		}
		if h == nil {
			continue
		}
		name := evidenceSearch(t, query.Query{Names: tc.names, Fuzzy: 1, MinScore: 0.05}, tc.id)
		sum := h.Reason.Summary()
		switch {
		case tc.nothing:
			if len(h.Reason.Evidence) != 0 || h.Score != name.Score || sum != name.Reason.Summary() {
				t.Errorf("%+v: a record without the facts scores %v (%q), the name alone %v", q, h.Score, sum, name.Score)
			}
			continue
		case !strings.Contains(sum, tc.says) || !strings.Contains(sum, "; name "+FormatScore(name.Score)+"; "):
			t.Errorf("%+v: reason %q, want the name's score %v and %q", q, sum, name.Score, tc.says)
		case h.Reason.NameScore != name.Score || h.Reason.Score != h.Score:
			t.Errorf("%+v: reason scores %v then %v; hit %v, name alone %v", q, h.Reason.NameScore, h.Reason.Score, h.Score, name.Score)
		case tc.up && h.Score < name.Score, !tc.up && h.Score >= name.Score:
			t.Errorf("%+v: scores %v; the name alone %v", q, h.Score, name.Score)
		}
		// At a threshold between the two scores, the evidence alone
		// decides whether the record is a hit.
		if h.Score != name.Score {
			mid := (h.Score + name.Score) / 2
			q.MinScore, tc.found = mid, tc.up
			if got := evidenceSearch(t, q, tc.id) != nil; got != tc.up {
				t.Errorf("%+v: at min_score %v found %v, want %v", q, mid, got, tc.up)
			}
		}
	}
}

// TestScoredEvidenceOrder: the more a date says the more it adds, and a
// different gender costs more than a different citizenship (people hold
// several).
func TestScoredEvidenceOrder(t *testing.T) {
	score := func(dob, gender, cit string) float64 {
		h := evidenceSearch(t, query.Query{Names: "Vladimir Putin", Fuzzy: 1, DOB: dob, Gender: gender, Citizenship: cit, MinScore: 0.01}, "putin")
		if h == nil {
			t.Fatalf("putin not found at dob %q gender %q citizenship %q", dob, gender, cit)
		}
		return h.Score
	}
	name, day, month, year := score("", "", ""), score("07/10/1952", "", ""), score("00/10/1952", "", ""), score("00/00/1952", "", "")
	if !(day > month && month > year && year > name) {
		t.Errorf("name %v, year %v, month %v, day %v: want each above the one before", name, year, month, day)
	}
	if g, c := score("", "female", ""), score("", "", "UA"); !(g < c && c < name) {
		t.Errorf("gender differs %v, citizenship differs %v, name %v: want rising", g, c, name)
	}
}

// TestScoredEvidenceStrict: strict mode has no evidence; its filters
// decide, as the contract says.
func TestScoredEvidenceStrict(t *testing.T) {
	ix, _ := evidenceIndex()
	for _, tc := range []struct {
		q     query.Query
		found bool
	}{
		{query.Query{Names: "Vladimir Putin", Fuzzy: 1, DOB: "07/10/1952", Gender: "male", Citizenship: "RU"}, true},
		{query.Query{Names: "Vladimir Putin", Fuzzy: 1, Gender: "female"}, false},
		{query.Query{Names: "Vladimir Putin", Fuzzy: 1, Citizenship: "UA"}, false},
	} {
		res, err := ix.Search(tc.q)
		if err != nil {
			t.Fatal(err)
		}
		if (hitOf(res, "putin") != nil) != tc.found {
			t.Errorf("strict %+v: found %v, want %v", tc.q, !tc.found, tc.found)
		}
	}
}
