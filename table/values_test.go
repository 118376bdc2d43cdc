package table

import (
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/query"
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
		got, err := NormalizeDOB(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("NormalizeDOB(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"31/02/1980", "1980-13-01", "07/10/52", "yesterday", "1/2/3/4", "00/00/0000", "07-10-1952x"} {
		if got, err := NormalizeDOB(bad); err == nil {
			t.Errorf("NormalizeDOB(%q) = %q, accepted", bad, got)
		}
	}
	// A date that reads only month-first names the column's format.
	for in, want := range map[string]string{
		"06/14/1971":   "the column looks month-first (mm/dd/yyyy)",
		"14 June 1971": "dd/mm/yyyy or yyyy-mm-dd",
		"31/02/1980":   "not a valid date",
	} {
		_, err := NormalizeDOB(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("NormalizeDOB(%q): %v, want %q", in, err, want)
		}
	}
	if _, err := NormalizeDOB("31/02/1980"); err != nil && strings.Contains(err.Error(), "month-first") {
		t.Errorf("31/02/1980 is called month-first: %v", err)
	}
}

func TestParseType(t *testing.T) {
	tests := map[string]query.Kind{"": query.Entity, "Individual": query.Individual, "natural person": query.Individual,
		"P": query.Individual, "company": query.Entity, "Legal Entity": query.Entity, "any": query.Any}
	for in, want := range tests {
		if got, ok := ParseType(in, query.Entity); !ok || got != want {
			t.Errorf("ParseType(%q) = %v, %v; want %v", in, got, ok, want)
		}
	}
	if _, ok := ParseType("trust", query.Any); ok {
		t.Error("ParseType accepted trust")
	}
}
