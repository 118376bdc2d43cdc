package batch

import (
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/engine"
)

func TestNormalizeDOB(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"07/10/1952", "07/10/1952"},
		{"7/10/1952", "07/10/1952"},
		{"07.10.1952", "07/10/1952"},
		{"1952-10-07", "07/10/1952"},
		{"1952-10-07T00:00:00", "07/10/1952"},
		{"1952-10-07 00:00:00", "07/10/1952"},
		{"10/1952", "00/10/1952"},
		{"1952", "00/00/1952"},
		{"00/00/1952", "00/00/1952"},
		{" 1952 ", "00/00/1952"},
		{"1971-06-14", "14/06/1971"},
	}
	for _, tc := range tests {
		got, err := normalizeDOB(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("normalizeDOB(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"31/02/1980", "1980-13-01", "07/10/52", "yesterday", "1/2/3/4", "00/00/0000", "07-10-1952x"} {
		if got, err := normalizeDOB(bad); err == nil {
			t.Errorf("normalizeDOB(%q) = %q, accepted", bad, got)
		}
	}
	// A date that reads only month-first names the column's format.
	for in, want := range map[string]string{
		"06/14/1971":   "the column looks month-first (mm/dd/yyyy)",
		"14 June 1971": "dd/mm/yyyy or yyyy-mm-dd",
		"31/02/1980":   "not a valid date",
	} {
		_, err := normalizeDOB(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("normalizeDOB(%q): %v, want %q", in, err, want)
		}
	}
	if _, err := normalizeDOB("31/02/1980"); err != nil && strings.Contains(err.Error(), "month-first") {
		t.Errorf("31/02/1980 is called month-first: %v", err)
	}
}

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

func TestParseType(t *testing.T) {
	tests := map[string]engine.Kind{"": engine.Entity, "Individual": engine.Individual, "natural person": engine.Individual,
		"P": engine.Individual, "company": engine.Entity, "Legal Entity": engine.Entity, "any": engine.Any}
	for in, want := range tests {
		if got, ok := parseType(in, engine.Entity); !ok || got != want {
			t.Errorf("parseType(%q) = %v, %v; want %v", in, got, ok, want)
		}
	}
	if _, ok := parseType("trust", engine.Any); ok {
		t.Error("parseType accepted trust")
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
