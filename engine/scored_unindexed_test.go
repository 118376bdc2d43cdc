package engine

import (
	"math"
	"testing"

	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// TestScoreUnindexedAgreesWithScoreRecord: for a record the index holds,
// scoring its content as a record the index need not hold answers as
// ScoreRecord does (hit or not, score, field, reason), over generated
// queries of every kind, fuzzy level and threshold.
func TestScoreUnindexedAgreesWithScoreRecord(t *testing.T) {
	recs := generated(800, 5)
	ix := NewIndex(recs)
	queries := scoredQueries(recs, 200, 9)
	compared, hits := 0, 0
	for _, q := range queries {
		res, err := ix.Search(q)
		if err != nil {
			continue
		}
		// Every hit and as many records that are not.
		ids := []string{}
		for _, h := range res.Hits {
			ids = append(ids, h.Record.ID)
		}
		for i := 0; i < len(res.Hits)+3; i++ {
			ids = append(ids, recs[(i*131+len(q.Names))%len(recs)].ID)
		}
		for _, id := range ids {
			want, wok, err := ix.ScoreRecord(q, id)
			if err != nil {
				t.Fatal(err)
			}
			got, gok, err := ix.ScoreUnindexed(q, ix.Get(id))
			if err != nil {
				t.Fatal(err)
			}
			compared++
			if wok {
				hits++
			}
			if gok != wok || gok && (got.Score != want.Score || got.Field != want.Field || got.Reason.Logit != want.Reason.Logit ||
				got.Exact != want.Exact || got.Edits != want.Edits || got.Extra != want.Extra) {
				t.Errorf("%q fuzzy %d min %v, %s: ScoreUnindexed %v %+v; ScoreRecord %v %+v", q.Names, q.Fuzzy, q.MinScore, id, gok, got, wok, want)
			}
		}
	}
	if compared < 500 || hits < 50 {
		t.Fatalf("only %d comparisons, %d hits: the test proves little", compared, hits)
	}
}

// TestScoreUnindexedNewSpelling: a record whose spelling the index has
// never seen (the new state a change set brings) is scored about as the
// index would score it after applying the change, and found.
func TestScoreUnindexedNewSpelling(t *testing.T) {
	ix, _ := scoredIndex()
	newRec := &record.Record{ID: "new1", SourceID: "ofac", SourceType: "SANCTION", EntityType: record.EntityIndividual,
		Name: "SMYTHE, Jonn Michaelo"}
	for _, tc := range []struct {
		q    query.Query
		want bool
	}{
		{query.Query{Names: "John Michael Smith", Fuzzy: 2, Match: query.Scored, MinScore: 0.3}, true},
		{query.Query{Names: "Olga Kuznetsova", Fuzzy: 2, Match: query.Scored}, false},
		{query.Query{Names: "John Michael Smith", Fuzzy: 2, Match: query.Scored, Kind: query.Entity}, false},
	} {
		got, ok, err := ix.ScoreUnindexed(tc.q, newRec)
		if err != nil {
			t.Fatal(err)
		}
		if ok != tc.want {
			t.Errorf("%q kind %v: hit %v, want %v (%+v)", tc.q.Names, tc.q.Kind, ok, tc.want, got)
			continue
		}
		if !ok {
			continue
		}
		after := NewIndex(append(scoredList(), newRec))
		want, wok, err := after.ScoreRecord(tc.q, "new1")
		if err != nil || !wok {
			t.Fatalf("after the change: %v %v", wok, err)
		}
		if math.Abs(got.Score-want.Score) > 0.02 || got.Field != want.Field || got.Reason == nil {
			t.Errorf("%q: score %v (%s), after the change %v (%s)", tc.q.Names, got.Score, got.Field, want.Score, want.Field)
		}
	}
	if _, _, err := ix.ScoreUnindexed(query.Query{Names: "x"}, newRec); err == nil {
		t.Error("a strict query gave no error")
	}
}
