package report

import (
	"testing"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/query"
)

// TestScoredReport: a scored report names the mode and its threshold, and
// shows each hit's score and why: the word pairs with what each added and
// the screened words without a partner.
func TestScoredReport(t *testing.T) {
	ix := loadIndex(t, "records.jsonl")
	// The fixture list is small, so every word is weak evidence: a low
	// threshold keeps the middle-name variant a hit.
	q := query.Query{Kind: query.Individual, Names: "vladimir michael putin", Fuzzy: 1, Match: query.Scored, MinScore: 0.3}
	res, err := ix.Search(q)
	if err != nil || len(res.Hits) == 0 {
		t.Fatalf("no scored hit: %v", err)
	}
	pdf, _ := screen(t, ix, q)
	text := pdfText(t, pdf)
	score := engine.FormatScore(res.Hits[0].Score)
	for _, want := range []string{
		"Match mode", "Scored: records scoring at least 0.3 of 1",
		"Score " + score, "score " + score + " of 1, at least 0.3 needed",
		"vladimir → vladimir (exact,", "michael: no partner in the record (-",
		ID(q, testTime, testVersion),
	} {
		if !contains(text, want) {
			t.Errorf("report text lacks %q", want)
		}
	}
	strict := q
	strict.Match, strict.MinScore = query.Strict, 0
	if ID(strict, testTime, testVersion) == ID(q, testTime, testVersion) {
		t.Error("a scored report has the id of the strict one")
	}
	other := q
	other.MinScore = 0.5
	if ID(other, testTime, testVersion) == ID(q, testTime, testVersion) {
		t.Error("another threshold gives the same id")
	}
	strictPDF, _ := screen(t, ix, query.Query{Kind: query.Individual, Names: "vladimir putin", Fuzzy: 1})
	if contains(pdfText(t, strictPDF), "Match mode") {
		t.Error("a strict report names a match mode")
	}
}
