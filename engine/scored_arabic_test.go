package engine

import (
	"testing"

	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// TestArabicSim pins the costs of a romanised Arabic query word against a
// Latin record word: what Arabic cannot write (p, v, e, o, short vowels)
// costs little on the record's side only, anything else as weightedSim
// charges it, and arabicSim is never below weightedSim.
func TestArabicSim(t *testing.T) {
	for _, c := range []struct {
		q, r     string
		min, max float64
	}{
		{"biriz", "perez", 0.93, 0.95},        // b/p, i/e twice
		{"farnandu", "fernando", 0.95, 0.97},  // a/e, u/o
		{"faladimir", "vladimir", 0.95, 0.98}, // f/v, a guessed vowel
		{"bablu", "pablo", 0.95, 0.97},
		{"bitr", "peter", 0.91, 0.93}, // a vowel Arabic does not write
		{"perez", "biriz", 0.5, 0.77}, // the Latin word on the query's side: Latin costs
		{"lubiz", "perez", 0, 0.8},    // l for p is no Arabic spelling
		{"hasan", "hassan", 0.96, 1},
		{"harbi", "harb", 0.89, 0.92},   // a final vowel Arabic writes: as weightedSim
		{"salim", "salimi", 0.89, 0.92}, // the same on the record's side
	} {
		a, b := []rune(c.q), []rune(c.r)
		got := arabicSim(a, b)
		if got < c.min || got > c.max {
			t.Errorf("arabicSim(%s, %s) = %.3f, want %.2f to %.2f", c.q, c.r, got, c.min, c.max)
		}
		if w := weightedSim(a, b); got < w {
			t.Errorf("arabicSim(%s, %s) = %.3f below weightedSim %.3f", c.q, c.r, got, w)
		}
	}
}

// TestArabicQueryCaches: the same romanised words asked in Latin and in
// Arabic script pair at different similarities, so the caches that keep a
// word's partners (the view's, and a change-set preparer's) keep them
// apart, in either order, and the change-set scorer answers as
// ScoreUnindexed does.
func TestArabicQueryCaches(t *testing.T) {
	recs := append(generated(400, 37),
		&record.Record{ID: "PEREZ", SourceID: "test", SourceType: "SANCTION", EntityType: record.EntityIndividual, Name: "Fernando Pérez"})
	latin := query.Query{Kind: query.Any, Names: "Farnandu Biriz", Fuzzy: 2, Match: query.Scored, MinScore: 0.05}
	arabic := latin
	arabic.Names = "فرناندو بيريز"
	score := func(ix *Index, q query.Query) float64 {
		t.Helper()
		res, err := ix.Search(q)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range res.Hits {
			if h.Record.ID == "PEREZ" {
				return h.Score
			}
		}
		return 0
	}
	var want [2]float64
	for i, order := range [][2]query.Query{{latin, arabic}, {arabic, latin}} {
		ix := NewIndex(recs)
		a, b := score(ix, order[0]), score(ix, order[1])
		if i == 1 {
			a, b = b, a
		}
		if i == 0 {
			want = [2]float64{a, b}
		} else if want != [2]float64{a, b} {
			t.Errorf("Latin then Arabic %v, Arabic then Latin %v", want, [2]float64{a, b})
		}
	}
	if want[0] >= query.DefaultMinScore || want[1] < query.DefaultMinScore {
		t.Errorf("Latin %.3f, Arabic %.3f: want the Latin spelling below the default threshold and the Arabic above", want[0], want[1])
	}
	ix := NewIndex(recs)
	qs := []query.Query{latin, arabic, latin, arabic}
	for _, q := range []string{"بابلو فيلينا", "فلاديمير بوتين", "Vladimir Putin", "محمد حداد"} {
		qs = append(qs, query.Query{Kind: query.Any, Names: q, Fuzzy: 2, Match: query.Scored, MinScore: 0.2})
	}
	if _, hits := compareChangeSet(t, ix, recs[380:], qs); hits == 0 {
		t.Fatal("no hits: the comparison proves nothing")
	}
}
