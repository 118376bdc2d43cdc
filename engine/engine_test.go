package engine

import (
	"errors"
	"os"
	"reflect"
	"testing"

	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

func loadRules(t testing.TB) []*record.Record {
	t.Helper()
	f, err := os.Open("testdata/rules.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := record.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// matchers returns both implementations over the same records, so that
// every rule is pinned down for each.
func matchers(recs []*record.Record) map[string]interface {
	Search(query.Query) (*Result, error)
} {
	return map[string]interface {
		Search(query.Query) (*Result, error)
	}{"index": NewIndex(recs), "brute": NewBrute(recs)}
}

func ids(r *Result) []string {
	out := []string{}
	for _, h := range r.Hits {
		out = append(out, h.Record.ID)
	}
	return out
}

func TestNameMatchingRules(t *testing.T) {
	ind, ent := query.Individual, query.Entity
	tests := []struct {
		name string
		q    query.Query
		want []string // ids, best first
	}{
		// Token rule: extra record tokens, any order, transliteration.
		{"extra record tokens", query.Query{Names: "vladimir putin"}, []string{"P1"}},
		{"any order", query.Query{Names: "putin vladimir"}, []string{"P1"}},
		{"cyrillic query", query.Query{Names: "Путин Владимир"}, []string{"P1"}},
		{"a query token without partner", query.Query{Names: "vladimir ilyich putin"}, []string{}},
		{"repeated token needs two partners", query.Query{Names: "vladimir vladimir"}, []string{}},
		{"repeated token with two partners", query.Query{Names: "abdul abdul"}, []string{"P3"}},
		{"three abduls, two in the name", query.Query{Names: "abdul abdul abdul"}, []string{}},
		// Fuzzy rule and caps by length.
		{"typo without fuzzy", query.Query{Names: "vladimir putinn"}, []string{}},
		{"typo with fuzzy 1", query.Query{Names: "vladimir putinn", Fuzzy: 1}, []string{"P1"}},
		{"2-rune tokens never fuzzy", query.Query{Names: "jo lee", Fuzzy: 2}, []string{}},
		{"cap on the shorter token", query.Query{Names: "joe li", Fuzzy: 2}, []string{}},
		{"short tokens exact", query.Query{Names: "jo li", Fuzzy: 2}, []string{"P4"}},
		{"4 runes: 1 edit", query.Query{Names: "mria ivanova", Fuzzy: 2}, []string{"P2"}},
		{"4 runes: not 2 edits", query.Query{Names: "mrya ivanova", Fuzzy: 2}, []string{}},
		{"6+ runes: 2 edits at fuzzy 2", query.Query{Names: "maria ivonovo", Fuzzy: 2}, []string{"P2"}},
		{"6+ runes: only 1 edit at fuzzy 1", query.Query{Names: "maria ivonovo", Fuzzy: 1}, []string{}},
		// A swap of two adjacent letters is one edit (OSA), not two.
		{"swap is one edit", query.Query{Names: "maria ivnaova", Fuzzy: 1}, []string{"P2"}},
		{"swap is an edit", query.Query{Names: "maria ivnaova"}, []string{}},
		{"swap in a short token", query.Query{Names: "vladimir puitn", Fuzzy: 1}, []string{"P1"}},
		{"swap plus a substitution is two", query.Query{Names: "vladimir puitm", Fuzzy: 1}, []string{}},
		{"a moved letter is two edits", query.Query{Names: "maria inavova", Fuzzy: 1}, []string{}},
		// Legal forms, both directions, with fuzzy.
		{"long form finds abbreviation", query.Query{Kind: ent, Names: "acme holdings limited liability company"}, []string{"E1"}},
		{"dotted abbreviation", query.Query{Kind: ent, Names: "Acme Holdings L.L.C."}, []string{"E1"}},
		{"without legal form", query.Query{Kind: ent, Names: "acme holdings"}, []string{"E1"}},
		{"different legal form", query.Query{Kind: ent, Names: "acme holdings ltd"}, []string{}},
		{"only a legal form", query.Query{Kind: ent, Names: "llc"}, []string{}},
		{"only a legal form, long", query.Query{Names: "Limited Liability Company"}, []string{}},
		{"legal form plus fuzzy word", query.Query{Kind: ent, Names: "acme holdngs llc", Fuzzy: 1}, []string{"E1"}},
		{"legal form never fuzzy", query.Query{Kind: ent, Names: "acme holdings lcc", Fuzzy: 2}, []string{}},
		{"cyrillic long form", query.Query{Kind: ent, Names: "Общество с ограниченной ответственностью Ромашка"}, []string{"E3"}},
		{"romanised form", query.Query{Kind: ent, Names: "OOO Romashka"}, []string{"E3"}},
		{"checkName uses legal forms on entities", query.Query{Names: "acme holdings limited liability company"}, []string{"E1"}},
		// Entity types per check.
		{"individual check skips entities", query.Query{Kind: ind, Names: "acme holdings"}, []string{}},
		{"entity check returns UNKNOWN", query.Query{Kind: ent, Names: "global petroleum"}, []string{"E4"}},
		{"individual check returns UNKNOWN", query.Query{Kind: ind, Names: "global petroleum"}, []string{"E4"}},
		{"entity check skips vessels", query.Query{Kind: ent, Names: "sea princess"}, []string{}},
		{"checkName returns vessels", query.Query{Names: "sea princess"}, []string{"V1"}},
		{"entity check skips individuals", query.Query{Kind: ent, Names: "vladimir putin"}, []string{}},
		// search_all: other fields exact, names fuzzy.
		{"search_all finds a number", query.Query{SearchAll: "9187629"}, []string{"V1"}},
		{"search_all place", query.Query{SearchAll: "baghdadi samarra"}, []string{"P5"}},
		{"search_all: other fields exact only", query.Query{SearchAll: "samara", Fuzzy: 1}, []string{}},
		{"search_all: names fuzzy", query.Query{SearchAll: "acme holdngs", Fuzzy: 1}, []string{"E1"}},
		{"search_all across fields", query.Query{SearchAll: "acme dover"}, []string{"E1"}},
		{"search_all position", query.Query{SearchAll: "mayor lyon"}, []string{"X1"}},
		{"names does not look at other fields", query.Query{Names: "mayor lyon"}, []string{}},
		// Hyphens and apostrophes.
		{"hyphen parts", query.Query{Names: "abu bakr"}, []string{"P5"}},
		{"hyphen joined", query.Query{Names: "abubakr albaghdadi"}, []string{"P5"}},
		{"hyphen as written", query.Query{Names: "Abu-Bakr al-Baghdadi"}, []string{"P5"}},
		{"hyphenated query, spaced record", query.Query{Names: "jean-paul dupont"}, []string{"X1"}},
		{"apostrophe joins", query.Query{Names: "patrick o'brien"}, []string{"P6"}},
		{"apostrophe dropped", query.Query{Names: "patrick obrien"}, []string{"P6"}},
		// Ranking: exact, then fewer edits, then fewer extra tokens, then id.
		{"ranking", query.Query{Names: "ivan petrov", Fuzzy: 1}, []string{"R1", "R3", "R2"}},
		{"ties by id", query.Query{Names: "acme"}, []string{"E1", "E5"}},
	}
	recs := loadRules(t)
	for mname, m := range matchers(recs) {
		for _, tt := range tests {
			t.Run(mname+"/"+tt.name, func(t *testing.T) {
				res, err := m.Search(tt.q)
				if err != nil {
					t.Fatal(err)
				}
				if got := ids(res); !reflect.DeepEqual(got, tt.want) {
					t.Errorf("%+v: got %v, want %v", tt.q, got, tt.want)
				}
				if res.Total != len(tt.want) {
					t.Errorf("total_hits %d, want %d", res.Total, len(tt.want))
				}
			})
		}
	}
}

func TestFilters(t *testing.T) {
	tests := []struct {
		name string
		q    query.Query
		want []string
	}{
		{"dob exact", query.Query{Names: "abu bakr", DOB: "28/07/1971"}, []string{"P5"}},
		{"dob second date", query.Query{Names: "abu bakr", DOB: "00/00/1970"}, []string{"P5"}},
		{"record year only agrees", query.Query{Names: "abu bakr", DOB: "15/01/1970"}, []string{"P5"}},
		{"dob disagrees", query.Query{Names: "abu bakr", DOB: "01/01/1969"}, []string{}},
		{"record 00/00/yyyy", query.Query{Names: "maria ivanova", DOB: "12/05/1960"}, []string{"P2"}},
		{"record bare year", query.Query{Names: "abdul karim", DOB: "00/00/1975"}, []string{"P3"}},
		{"record bare year disagrees", query.Query{Names: "abdul karim", DOB: "01/01/1976"}, []string{}},
		{"no dob passes", query.Query{Names: "jo li", DOB: "01/01/1900"}, []string{"P4"}},
		{"query month only", query.Query{Names: "patrick obrien", DOB: "00/03/1960"}, []string{"P6"}},
		{"query month disagrees", query.Query{Names: "patrick obrien", DOB: "00/04/1960"}, []string{}},
		{"query day only", query.Query{Names: "patrick obrien", DOB: "12/00/1960"}, []string{"P6"}},
		{"gender differs", query.Query{Names: "maria ivanova", Gender: "male"}, []string{}},
		{"gender agrees, any case", query.Query{Names: "maria ivanova", Gender: "FEMALE"}, []string{"P2"}},
		{"UNKNOWN gender passes", query.Query{Names: "jo li", Gender: "male"}, []string{"P4"}},
		{"no gender passes", query.Query{Names: "abdul karim", Gender: "female"}, []string{"P3"}},
		{"citizenship by country name", query.Query{Names: "maria ivanova", Citizenship: "ru"}, []string{"P2"}},
		{"citizenship differs", query.Query{Names: "maria ivanova", Citizenship: "DE"}, []string{}},
		{"no citizenship passes", query.Query{Names: "abdul karim", Citizenship: "de"}, []string{"P3"}},
		{"source set", query.Query{Names: "abdul karim", Sources: map[string]bool{"pep_de": true}}, []string{"P3"}},
		{"source set excludes", query.Query{Names: "abdul karim", Sources: map[string]bool{"eu_fsf": true}}, []string{}},
	}
	recs := loadRules(t)
	for mname, m := range matchers(recs) {
		for _, tt := range tests {
			t.Run(mname+"/"+tt.name, func(t *testing.T) {
				res, err := m.Search(tt.q)
				if err != nil {
					t.Fatal(err)
				}
				if got := ids(res); !reflect.DeepEqual(got, tt.want) {
					t.Errorf("%+v: got %v, want %v", tt.q, got, tt.want)
				}
			})
		}
	}
}

func TestInvalidQueries(t *testing.T) {
	tests := []struct {
		q     query.Query
		param string
	}{
		{query.Query{Names: "x", DOB: "32/01/2000"}, "dob"},
		{query.Query{Names: "x", DOB: "1/1/2000"}, "dob"},
		{query.Query{Names: "x", DOB: "00/00/0000"}, "dob"},
		{query.Query{Names: "x", DOB: "31/02/2001"}, "dob"},
		{query.Query{Names: "x", DOB: "01/13/2001"}, "dob"},
		{query.Query{Names: "x", Gender: "unknown"}, "gender"},
		{query.Query{Names: "x", Citizenship: "XX"}, "citizenship"},
		{query.Query{Names: "x", Fuzzy: -1}, "fuzzy_search"},
		{query.Query{Names: "x", Citizenship: "DEU"}, "citizenship"},
		{query.Query{Names: "x", Citizenship: "1A"}, "citizenship"},
		{query.Query{Names: "x", Fuzzy: 3}, "fuzzy_search"},
		{query.Query{Names: "x", SearchAll: "y"}, "names"},
		{query.Query{}, "names"},
		{query.Query{Names: "!!! ..."}, "names"},
		{query.Query{SearchAll: "--"}, "search_all"},
	}
	ix := NewIndex(loadRules(t))
	for _, tt := range tests {
		_, err := ix.Search(tt.q)
		var pe *query.ParamError
		if !errors.As(err, &pe) || pe.Param != tt.param {
			t.Errorf("%+v: got %v, want a ParamError on %s", tt.q, err, tt.param)
		}
	}
}

func TestLimitAndTotal(t *testing.T) {
	for mname, m := range matchers(loadRules(t)) {
		res, err := m.Search(query.Query{Names: "ivan", Limit: 2})
		if err != nil {
			t.Fatal(err)
		}
		if res.Total != 3 || len(res.Hits) != 2 {
			t.Errorf("%s: total %d, %d hits; want 3 and 2", mname, res.Total, len(res.Hits))
		}
	}
}

func TestExactAndField(t *testing.T) {
	ix := NewIndex(loadRules(t))
	res, err := ix.Search(query.Query{Names: "vladimir putin"})
	if err != nil || len(res.Hits) != 1 {
		t.Fatalf("got %v, %v", res, err)
	}
	h := res.Hits[0]
	if !h.Exact || h.Field != "given_names+last_names" || h.Edits != 0 || h.Extra != 0 {
		t.Errorf("hit = %+v, want exact on given_names+last_names", h)
	}
	m, ok, err := Explain(query.Query{Names: "vladimir putinn", Fuzzy: 1}, h.Record)
	if err != nil || !ok || m.Edits() != 1 || len(m.Pairs) != 2 {
		t.Errorf("Explain = %+v, %v, %v", m, ok, err)
	}
}
