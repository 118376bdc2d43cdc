package engine

import (
	"errors"
	"fmt"
	"testing"

	"github.com/amlscreen/amlscreen/record"
)

// rankedRecords is a small list in which "de" and "jesus" are common words
// and "romo" a rare one, so the IDF weights have something to tell apart.
func rankedRecords() []*record.Record {
	ind := func(id, name string) *record.Record {
		return &record.Record{ID: id, SourceID: "s", Name: name, EntityType: record.EntityIndividual}
	}
	recs := []*record.Record{
		ind("romo", "Martin ROMO LOPEZ"),
		ind("garcia", "Martin GARCIA"),
		ind("lopez", "Jose LOPEZ"),
		ind("cruz", "Jesus de la CRUZ"),
		ind("maria", "Maria de Jesus GARCIA"),
		ind("dios", "Juan de Dios PEREZ"),
		ind("leon", "Pedro de LEON"),
		ind("long", "Martin Romo Lopez Alberto Fernandez Castillo"),
		{ID: "sepanir", SourceID: "s", Name: "SEPANIR OIL AND GAS ENGINEERING COMPANY", EntityType: record.EntityEntity},
	}
	for i := range 6 {
		recs = append(recs, ind(fmt.Sprintf("filler%d", i), fmt.Sprintf("Muhammad %s", []string{"Ali", "Hassan", "Karim", "Omar", "Yusuf", "Tariq"}[i])))
	}
	return recs
}

func rankOf(res *Result, id string) int {
	for i, h := range res.Hits {
		if h.Record.ID == id {
			return i + 1
		}
	}
	return 0
}

func TestRankedFindsWhatStrictRejects(t *testing.T) {
	ix := NewIndex(rankedRecords())
	for _, tc := range []struct {
		query, want string
		fuzzy       int
	}{
		{"Martin de Jesus Romo Lopez", "romo", 0},               // two words more than the name
		{"Martin de Jesus Romo Lopes", "romo", 2},               // and a typo
		{"Sepanir Oil and Gas Engineering Group", "sepanir", 0}, // one word more, one less
	} {
		strict, err := ix.Search(Query{Names: tc.query, Fuzzy: tc.fuzzy})
		if err != nil {
			t.Fatal(err)
		}
		if rankOf(strict, tc.want) != 0 {
			t.Errorf("%q: strict mode found %s; the test no longer shows the difference", tc.query, tc.want)
		}
		// The default threshold is tuned for a list of thousands; in this
		// one every word is rare, so a missing word weighs more.
		ranked, err := ix.Ranked(RankedQuery{Names: tc.query, Fuzzy: tc.fuzzy, MinScore: 0.5})
		if err != nil {
			t.Fatal(err)
		}
		if r := rankOf(ranked, tc.want); r != 1 {
			t.Errorf("%q: ranked mode put %s at rank %d (hits %v), want 1", tc.query, tc.want, r, ids(ranked))
		}
		for i, h := range ranked.Hits {
			if h.Score < 0.5 || h.Score > 1 || i > 0 && h.Score > ranked.Hits[i-1].Score {
				t.Errorf("%q: hit %d %s has score %.3f, out of order or range", tc.query, i, h.Record.ID, h.Score)
			}
		}
	}
}

func TestRankedScoresOrder(t *testing.T) {
	ix := NewIndex(rankedRecords())
	score := func(q, id string, fuzzy int) float64 {
		t.Helper()
		res, err := ix.Ranked(RankedQuery{Names: q, Fuzzy: fuzzy, MinScore: 1e-9})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range res.Hits {
			if h.Record.ID == id {
				return h.Score
			}
		}
		return 0
	}
	exact := score("Martin Romo Lopez", "romo", 0)
	typo := score("Martin Romo Lopes", "romo", 1)
	extraWords := score("Martin Romo Lopez", "long", 0)
	// "de Romo": record romo lacks the common word, record cruz the rare.
	missingCommon := score("de Romo", "romo", 0)
	missingRare := score("de Romo", "cruz", 0)
	if exact != 1 {
		t.Errorf("exact name scores %.3f, want 1", exact)
	}
	// Each step down loses something: an edit, unpaired record words, a
	// query word; a rare word missing costs more than a common one.
	for _, c := range []struct {
		name        string
		high, low   float64
		highN, lowN string
	}{
		{"typo below exact", exact, typo, "exact", "typo"},
		{"extra record words below exact", exact, extraWords, "exact", "extra words"},
		{"missing common word above missing rare", missingCommon, missingRare, "romo (no de)", "cruz (no romo)"},
	} {
		if !(c.high > c.low) {
			t.Errorf("%s: %s %.3f, %s %.3f", c.name, c.highN, c.high, c.lowN, c.low)
		}
	}
	res, err := ix.Ranked(RankedQuery{Names: "Martin Romo Lopez"})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(res); len(got) < 2 || got[0] != "romo" || got[1] != "long" {
		t.Errorf("ranking %v, want romo then long first", got)
	}
	if !res.Hits[0].Exact || res.Hits[0].Field != "name" {
		t.Errorf("best hit %+v, want exact on name", res.Hits[0])
	}
}

func TestRankedRejectsCleanNames(t *testing.T) {
	ix := NewIndex(rankedRecords())
	for _, q := range []string{
		"John Smith",           // no word in the list
		"Muhammad Ibrahim",     // one common word
		"Martin Zimmermann",    // one word of two, the common one
		"Golden Shipping Oil",  // one word of three
		"Pedro Sanchez Romero", // one word of three
	} {
		res, err := ix.Ranked(RankedQuery{Names: q, Fuzzy: 2})
		if err != nil {
			t.Fatal(err)
		}
		if res.Total != 0 {
			t.Errorf("%q: %d hits %v, scores %v; want none", q, res.Total, ids(res), scores(res))
		}
	}
}

func scores(res *Result) []float64 {
	var out []float64
	for _, h := range res.Hits {
		out = append(out, h.Score)
	}
	return out
}

func TestRankedFiltersAndParams(t *testing.T) {
	ix := NewIndex(rankedRecords())
	res, err := ix.Ranked(RankedQuery{Kind: Entity, Names: "Martin Romo Lopez"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 0 {
		t.Errorf("checkEntity returned individuals %v", ids(res))
	}
	res, err = ix.Ranked(RankedQuery{Names: "Martin Romo Lopez", Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 1 || res.Total < 2 {
		t.Errorf("limit 1: %d hits of %d", len(res.Hits), res.Total)
	}
	for _, q := range []RankedQuery{
		{Names: "x y", MinScore: 1.5},
		{Names: "x y", MinScore: -0.1},
		{Names: "x", Fuzzy: 3},
		{Names: "  "},
	} {
		var pe *ParamError
		if _, err := ix.Ranked(q); !errors.As(err, &pe) {
			t.Errorf("%+v: error %v, want a *ParamError", q, err)
		}
	}
	if res, err := ix.Ranked(RankedQuery{Names: "LLC"}); err != nil || res.Total != 0 {
		t.Errorf("legal form only: %v, %v", res, err)
	}
}

// TestRankedIgnoresTombstones: weights count live records only, so an
// index that has seen updates scores like one built afresh.
func TestRankedIgnoresTombstones(t *testing.T) {
	recs := rankedRecords()
	ix := NewIndex(recs)
	for range 3 {
		ix.Apply([]record.Change{{Type: record.ChangeUpdate, Record: *recs[3]}, {Type: record.ChangeUpdate, Record: *recs[4]}})
	}
	fresh := NewIndex(recs)
	q := RankedQuery{Names: "Martin de Jesus Romo Lopez", MinScore: 1e-9}
	a, err := ix.Ranked(q)
	if err != nil {
		t.Fatal(err)
	}
	b, err := fresh.Ranked(q)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(ids(a), scores(a)) != fmt.Sprint(ids(b), scores(b)) {
		t.Errorf("after updates %v %v, fresh %v %v", ids(a), scores(a), ids(b), scores(b))
	}
}
