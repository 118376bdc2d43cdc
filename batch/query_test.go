package batch

import (
	"reflect"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/engine"
)

func TestNormalizeCitizenship(t *testing.T) {
	cits := map[string]string{"": "", "ru": "RU", " DE ": "DE", "Germany": "DE", "Russian Federation": "RU", "RU; CY": "", "RU, Russia": "RU",
		"UK": "GB", "uk": "GB", "EL": "GR", "XK": "XK", "GB; UK": "GB"}
	for in, want := range cits {
		if got, err := normalizeCitizenship(in); err != nil || got != want {
			t.Errorf("normalizeCitizenship(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"XX", "Atlantis", "RU;XX", "ZZ", "EU"} {
		if _, err := normalizeCitizenship(bad); err == nil {
			t.Errorf("normalizeCitizenship(%q) accepted", bad)
		}
	}
}

// TestScreenFilters: individual rows are filtered by dob, gender and
// citizenship; entity rows ignore those columns, even when they hold
// something that would be rejected for an individual.
func TestScreenFilters(t *testing.T) {
	s := &Screener{Index: mustFixtureIndex(t)}
	tests := []struct {
		name   string
		row    Row
		hits   []string
		reject string // field
	}{
		{"dob keeps", Row{Name: "Maria Ivanova", Type: "individual", DOB: "1960-05-01"}, []string{"P2"}, ""},
		{"dob drops", Row{Name: "Maria Ivanova", Type: "individual", DOB: "1961"}, nil, ""},
		{"gender drops", Row{Name: "Maria Ivanova", Type: "individual", Gender: "m"}, nil, ""},
		{"gender keeps", Row{Name: "Maria Ivanova", Type: "individual", Gender: "F"}, []string{"P2"}, ""},
		// A gender the filter cannot use rejects the row: it is never
		// screened unfiltered behind the user's back.
		{"unknown gender rejects", Row{Name: "Maria Ivanova", Type: "individual", Gender: "unknown"}, nil, FieldGender},
		{"x gender rejects", Row{Name: "Maria Ivanova", Type: "individual", Gender: "x"}, nil, FieldGender},
		{"UK is GB", Row{Name: "Maria Ivanova", Type: "individual", Citizenship: "UK"}, nil, ""},
		{"XX rejects", Row{Name: "Maria Ivanova", Type: "individual", Citizenship: "XX"}, nil, FieldCitizenship},
		{"33 words rejects", Row{Name: strings.Repeat("maria ", 33), Type: "individual"}, nil, FieldName},
		{"country name keeps", Row{Name: "Maria Ivanova", Type: "individual", Citizenship: "Russia"}, []string{"P2"}, ""},
		{"country drops", Row{Name: "Maria Ivanova", Type: "individual", Citizenship: "FR"}, nil, ""},
		{"default kind any filters too", Row{Name: "Maria Ivanova", DOB: "1961"}, nil, ""},
		{"entity ignores filters", Row{Name: "Acme Holdings LLC", Type: "entity", DOB: "founded 1999", Citizenship: "Delaware"}, []string{"E1"}, ""},
		{"individual bad dob", Row{Name: "Acme Holdings LLC", Type: "individual", DOB: "founded 1999"}, nil, FieldDOB},
		{"only legal form is no hit, not a reject", Row{Name: "LLC", Type: "entity"}, nil, ""},
		{"unreadable row", Row{Reject: &Reject{Field: "row", Reason: "bad"}}, nil, "row"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := s.Screen(&tc.row)
			if err != nil {
				t.Fatal(err)
			}
			if tc.reject != "" {
				if res.Reject == nil || res.Reject.Field != tc.reject {
					t.Fatalf("reject %+v, want field %s", res.Reject, tc.reject)
				}
				return
			}
			if res.Reject != nil {
				t.Fatalf("rejected: %+v", res.Reject)
			}
			var ids []string
			for _, h := range res.Hits {
				ids = append(ids, h.RecordID)
			}
			if len(ids) != len(tc.hits) || (len(ids) > 0 && ids[0] != tc.hits[0]) {
				t.Errorf("hits %v, want %v", ids, tc.hits)
			}
		})
	}
}

// TestQueryUncheckedLeavesParseToTheCheck: QueryUnchecked rejects what
// Query rejects before the parameters are parsed, and a row Query rejects
// for a parameter comes back unrejected with a check whose parse
// (engine.CompileQuery, as every engine check compiles it) fails on that
// parameter; rows Query takes come back the same.
func TestQueryUncheckedLeavesParseToTheCheck(t *testing.T) {
	s := &Screener{Index: mustFixtureIndex(t)}
	for _, tc := range []struct {
		name  string
		row   Row
		param bool // Query rejects it for a parameter
	}{
		{"good", Row{Name: "Maria Ivanova", Type: "individual", DOB: "1960"}, false},
		{"33 words", Row{Name: strings.Repeat("maria ", 33), Type: "individual"}, true},
		{"no word", Row{Name: "!!! ---", Type: "individual"}, true},
		{"bad gender", Row{Name: "Maria Ivanova", Type: "individual", Gender: "x"}, false},
		{"missing name", Row{Name: " ", Type: "individual"}, false},
		{"unreadable row", Row{ID: "C9", Reject: &Reject{Field: "row", Reason: "bad"}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q, rej := s.Query(&tc.row)
			uq, urej := s.QueryUnchecked(&tc.row)
			_, err := engine.CompileQuery(uq)
			switch {
			case tc.param:
				if rej == nil {
					t.Fatal("Query takes it")
				}
				if urej != nil || err == nil {
					t.Fatalf("QueryUnchecked: reject %+v, parse error %v; want no reject and a parse error", urej, err)
				}
			case rej != nil:
				if urej == nil || *urej != *rej {
					t.Fatalf("QueryUnchecked rejects %+v, Query %+v", urej, rej)
				}
			default:
				if urej != nil || err != nil || !reflect.DeepEqual(q, uq) {
					t.Fatalf("QueryUnchecked: %+v, %+v, %v; Query: %+v", uq, urej, err, q)
				}
			}
		})
	}
}
