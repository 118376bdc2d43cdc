package engine

import (
	"fmt"
	"testing"

	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// TestSplitCandidatesByRarestPiece: a query word that splits into a
// common first piece and rarer ones (Alliance as al li ance, where al
// starts hundreds of Arabic names) finds its candidates through the rarer
// pieces. Through the first piece, every name string holding al was a
// candidate: at a million records one company name had 204,435 and was
// refused.
func TestSplitCandidatesByRarestPiece(t *testing.T) {
	var recs []*record.Record
	for i := range 600 {
		recs = append(recs, &record.Record{ID: fmt.Sprintf("AL%d", i), SourceID: "test", SourceType: "SANCTION", EntityType: record.EntityIndividual,
			Name: fmt.Sprintf("Al Rashid%c%c Hamdan", 'a'+i%26, 'a'+i/26%26)})
	}
	recs = append(recs,
		&record.Record{ID: "LIANCE", SourceID: "test", SourceType: "SANCTION", EntityType: record.EntityEntity, Name: "Al Li Ance"},
		&record.Record{ID: "ALLIANCE", SourceID: "test", SourceType: "SANCTION", EntityType: record.EntityEntity, Name: "Alliance"})
	ix := NewIndex(recs)
	q := query.Query{Names: "Alliance", Fuzzy: 1, Match: query.Scored, MinScore: 0.5}
	res, err := ix.Search(q)
	if err != nil {
		t.Fatal(err)
	}
	want, err := NewBrute(recs).Search(q)
	if err != nil {
		t.Fatal(err)
	}
	if got, w := scoredKeys(res), scoredKeys(want); fmt.Sprint(got) != fmt.Sprint(w) {
		t.Errorf("index %v, brute force %v", got, w)
	}
	if len(res.Hits) < 2 {
		t.Errorf("hits %v: want Alliance and Al Li Ance", scoredKeys(res))
	}
	if res.work > 20 {
		t.Errorf("scored %d name strings; only the two holding li, ance or alliance can pair", res.work)
	}
}
