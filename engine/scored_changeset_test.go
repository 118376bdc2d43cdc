package engine

import (
	"testing"

	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// TestChangeSetScorerEqualsScoreUnindexed: a check prepared for a change
// set scores each of its records as ScoreUnindexed does (hit or not,
// score, field, reason), over generated queries of every kind, fuzzy
// level and threshold, records the index holds and a new spelling it does
// not, a word that pairs split in two (Aliakbar, Ali Akbar) and a name
// written in Han, which is compared in its own script: 180 generated
// queries, 300 with AMLSCREEN_LONG_TESTS=1.
func TestChangeSetScorerEqualsScoreUnindexed(t *testing.T) {
	skipUnderRace(t)
	nQueries := 180
	if longTests() {
		nQueries = 300
	}
	recs := generated(800, 5)
	han := &record.Record{ID: "HAN1", SourceID: recs[0].SourceID, SourceType: recs[0].SourceType,
		EntityType: record.EntityEntity, Name: "宁波泰丰实业有限责任公司"}
	split := &record.Record{ID: "SPLIT1", SourceID: recs[0].SourceID, SourceType: recs[0].SourceType,
		EntityType: record.EntityIndividual, Name: "Ali Akbar Rafsanjani"}
	recs = append(recs, han, split)
	ix := NewIndex(recs)
	renamed := recs[7].Clone()
	renamed.ID, renamed.Name = "NEW1", recs[7].Name+"x"
	// Without a new spelling the scorer looks up only the units pairing
	// with the records' words; with one, every unit.
	compared, hits := 0, 0
	for _, withNew := range []bool{false, true} {
		changed := append([]*record.Record{}, recs[:120]...)
		changed = append(changed, han, split)
		if withNew {
			changed = append(changed, renamed)
		}
		c, h := compareChangeSet(t, ix, changed, append(scoredQueries(changed[:120], nQueries, 9),
			query.Query{Names: "宁波泰丰石油有限公司", Match: query.Scored, Fuzzy: 1, Limit: 10, MinScore: 0.2},
			query.Query{Names: "Aliakbar Rafsanjani", Match: query.Scored, Fuzzy: 1, Limit: 10},
			query.Query{Names: renamed.Name, Match: query.Scored, Fuzzy: 1, Limit: 10}))
		compared, hits = compared+c, hits+h
	}
	if compared < 10000 || hits < 100 {
		t.Fatalf("only %d comparisons, %d hits: the test proves little", compared, hits)
	}
	t.Logf("%d comparisons, %d hits", compared, hits)
}

// compareChangeSet compares a ChangeSetScorer of changed with
// ScoreUnindexed for every query and record.
func compareChangeSet(t *testing.T, ix *Index, changed []*record.Record, queries []query.Query) (compared, hits int) {
	t.Helper()
	prepared := make([]*PreparedRecord, len(changed))
	for i, r := range changed {
		prepared[i] = PrepareRecord(r)
	}
	s := ix.ChangeSetScorer(prepared)
	defer s.Release()
	p := s.Preparer()
	for _, q := range queries {
		want, err := ix.PrepareScoredQuery(q)
		got, gerr := p.Prepare(q)
		if (err == nil) != (gerr == nil) {
			t.Fatalf("%q: PrepareScoredQuery %v, Prepare %v", q.Names, err, gerr)
		}
		if err != nil {
			continue
		}
		for i := range changed {
			w, wok := want.ScorePrepared(prepared[i])
			g, gok := got.Score(i)
			compared++
			if wok {
				hits++
			}
			if gok != wok || gok && (g.Score != w.Score || g.Field != w.Field || g.Reason.Logit != w.Reason.Logit ||
				g.Reason.Summary() != w.Reason.Summary() || g.Exact != w.Exact || g.Edits != w.Edits || g.Extra != w.Extra) {
				t.Errorf("%q fuzzy %d min %v, %s %q: change set %v %+v; ScoreUnindexed %v %+v", q.Names, q.Fuzzy, q.MinScore,
					changed[i].ID, changed[i].Name, gok, g, wok, w)
			}
		}
	}
	return compared, hits
}
