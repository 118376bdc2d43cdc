package engine

import (
	"testing"

	"github.com/amlscreen/amlscreen/query"
)

// TestReasonCountsASwapAsOneEdit: the reason an analyst reads says "1 edit"
// for a swapped pair of letters, as the match itself counts it.
func TestReasonCountsASwapAsOneEdit(t *testing.T) {
	recs := loadRules(t)
	var p2 = recs[0]
	for _, r := range recs {
		if r.ID == "P2" {
			p2 = r
		}
	}
	for _, c := range []struct {
		q    query.Query
		want string
	}{
		{query.Query{Names: "maria ivnaova", Fuzzy: 1}, "1 edit: maria, ivnaova→ivanova (1 edit)"},
		{query.Query{Names: "maria ivonovo", Fuzzy: 2}, "2 edits: maria, ivonovo→ivanova (2 edits)"},
		{query.Query{Names: "ivanova maria"}, "exact: ivanova, maria"},
	} {
		m, ok, err := Explain(c.q, p2)
		if err != nil || !ok {
			t.Fatalf("%+v: no match (%v)", c.q, err)
		}
		if got := Reason(m); got != c.want {
			t.Errorf("%+v: reason %q, want %q", c.q, got, c.want)
		}
	}
}
