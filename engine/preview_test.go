package engine

import (
	"fmt"
	"testing"

	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// TestPreviewIsTheIndexAfterTheChangeSet: a preview answers (hits and
// scores) as the index does once the change set is applied, and leaves
// the index as it was.
func TestPreviewIsTheIndexAfterTheChangeSet(t *testing.T) {
	var recs []*record.Record
	for i := range 300 {
		recs = append(recs, &record.Record{ID: fmt.Sprintf("A%03d", i), EntityType: "INDIVIDUAL", Name: fmt.Sprintf("Zed Alpha%d Common", i)})
	}
	changes := []record.Change{
		{Type: record.ChangeAdd, Record: record.Record{ID: "N1", EntityType: "INDIVIDUAL", Name: "Zed Gamma Common"}},
		{Type: record.ChangeUpdate, Record: record.Record{ID: "A001", EntityType: "INDIVIDUAL", Name: "Zed Gamma"}},
		{Type: record.ChangeDelete, Record: record.Record{ID: "A002"}},
	}
	ix, after := NewIndex(recs), NewIndex(recs)
	after.Apply(changes)
	p, err := ix.Preview(changes)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, q := range []query.Query{{Names: "zed gamma"}, {Names: "zed gamma common", Match: query.Scored, Fuzzy: 1}, {Names: "zed alpha5 common", Match: query.Scored}} {
		want, err := after.Search(q)
		if err != nil {
			t.Fatal(err)
		}
		if len(want.Hits) == 0 {
			t.Fatalf("%+v: no hit after the change set: the test would prove little", q)
		}
		got, err := p.Search(q)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(hitSummary(got)) != fmt.Sprint(hitSummary(want)) {
			t.Errorf("%+v: preview %v, index after %v", q, hitSummary(got), hitSummary(want))
		}
		before, _ := ix.Search(q)
		if q.Names == "zed gamma" && before.Total != 0 {
			t.Errorf("the index itself changed: %d hits for zed gamma", before.Total)
		}
	}
}

func hitSummary(r *Result) []string {
	var out []string
	for _, h := range r.Hits {
		out = append(out, fmt.Sprintf("%s %.6f", h.Record.ID, h.Score))
	}
	return out
}
