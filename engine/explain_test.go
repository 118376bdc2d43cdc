package engine

import (
	"reflect"
	"testing"

	"github.com/amlscreen/amlscreen/dict"
	"github.com/amlscreen/amlscreen/query"
)

// TestCompiledExplainEqualsExplain checks that a query compiled once
// explains prepared records as Explain explains them one by one (the batch
// screener explains a book's hits that way), on generated strict checks
// against the records they hit and some they do not.
func TestCompiledExplainEqualsExplain(t *testing.T) {
	t.Parallel()
	recs := generated(400, 11)
	ix := NewIndex(recs)
	prepared := make(map[string]*PreparedRecord, len(recs))
	for _, r := range recs {
		prepared[r.ID] = PrepareRecord(r)
	}
	explained := 0
	for i, q := range diffQueries(recs, 120, 5) {
		q.Match = query.Strict
		res, err := ix.Search(q)
		if err != nil {
			continue
		}
		cq, err := CompileQuery(q)
		if err != nil {
			t.Fatalf("%+v: %v", q, err)
		}
		check := func(r *PreparedRecord) {
			want, wantOK, err := Explain(q, r.Record())
			if err != nil {
				t.Fatalf("%+v: %v", q, err)
			}
			got, gotOK := cq.Explain(r)
			if gotOK != wantOK || !reflect.DeepEqual(got, want) {
				t.Fatalf("%+v on %s: compiled explains %v %+v, Explain %v %+v", q, r.Record().ID, gotOK, got, wantOK, want)
			}
			if gotOK {
				explained++
			}
		}
		for _, h := range res.Hits {
			check(prepared[h.Record.ID])
		}
		check(prepared[recs[i%len(recs)].ID])
	}
	// An agreement on no explanation at all would prove nothing.
	if explained < 40 {
		t.Errorf("only %d explanations: the generated checks are too weak", explained)
	}
}

// TestEditsWithin checks the length shortcut against the full distance.
func TestEditsWithin(t *testing.T) {
	t.Parallel()
	words := []string{"", "a", "ab", "ba", "abc", "acb", "ahmed", "ahmad", "achmed", "mohammed", "muhammad", "mohamed", "müller", "muller", "mueller", "ivanov", "ivanova", "иванов", "иванова"}
	for _, a := range words {
		for _, b := range words {
			e := dict.EditDistance(a, b)
			for limit := range 4 {
				got, ok := editsWithin(a, b, limit)
				if ok != (e <= limit) || ok && got != e {
					t.Errorf("editsWithin(%q, %q, %d) = %d, %v; the distance is %d", a, b, limit, got, ok, e)
				}
			}
		}
	}
}
