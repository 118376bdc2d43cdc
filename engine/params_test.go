package engine

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

func filterRecords() []*record.Record {
	ind := func(id, name, gender string, cit ...string) *record.Record {
		return &record.Record{ID: id, SourceID: "s", SourceType: "SANCTION", EntityType: record.EntityIndividual,
			Name: name, Gender: gender, Citizenship: cit}
	}
	return []*record.Record{
		ind("GB1", "Declan Holloway", record.GenderMale, "GB"),
		ind("GB2", "Declan Holloway", record.GenderFemale, "United Kingdom"),
		ind("GR1", "Declan Holloway", "", "GR"),
		ind("XK1", "Declan Holloway", "", "Kosovo"),
		ind("NONE", "Declan Holloway", ""),
	}
}

// TestCitizenshipOneRule: aliases find what the ISO code finds, in any
// case; an unassigned code is refused instead of silently matching only
// records without citizenship.
func TestCitizenshipOneRule(t *testing.T) {
	recs := filterRecords()
	for mname, m := range matchers(recs) {
		for _, c := range []struct {
			cit  string
			want []string
		}{
			{"GB", []string{"GB1", "GB2", "NONE"}},
			{"uk", []string{"GB1", "GB2", "NONE"}},
			{"UK", []string{"GB1", "GB2", "NONE"}},
			{"el", []string{"GR1", "NONE"}},
			{"GR", []string{"GR1", "NONE"}},
			{"XK", []string{"NONE", "XK1"}},
			{"", []string{"GB1", "GB2", "GR1", "NONE", "XK1"}},
		} {
			res, err := m.Search(query.Query{Names: "declan holloway", Citizenship: c.cit})
			if err != nil {
				t.Fatalf("%s %q: %v", mname, c.cit, err)
			}
			if got := sortedIDs(res); strings.Join(got, ",") != strings.Join(c.want, ",") {
				t.Errorf("%s citizenship %q: %v, want %v", mname, c.cit, got, c.want)
			}
		}
		for _, bad := range []string{"XX", "ZZ", "EU", "GBR", "Britain", "1A"} {
			_, err := m.Search(query.Query{Names: "declan holloway", Citizenship: bad})
			var pe *query.ParamError
			if !errors.As(err, &pe) || pe.Param != "citizenship" || !strings.Contains(pe.Msg, bad) {
				t.Errorf("%s citizenship %q: %v, want a ParamError naming it", mname, bad, err)
			}
		}
	}
}

// TestGenderOneRule: m and f are male and female, in any case; values
// that say nothing are refused with a hint, never read as no filter.
func TestGenderOneRule(t *testing.T) {
	recs := filterRecords()
	for mname, m := range matchers(recs) {
		for _, c := range []struct {
			gender string
			want   []string
		}{
			{"male", []string{"GB1", "GR1", "NONE", "XK1"}},
			{"M", []string{"GB1", "GR1", "NONE", "XK1"}},
			{"m", []string{"GB1", "GR1", "NONE", "XK1"}},
			{"FEMALE", []string{"GB2", "GR1", "NONE", "XK1"}},
			{"f", []string{"GB2", "GR1", "NONE", "XK1"}},
			{"", []string{"GB1", "GB2", "GR1", "NONE", "XK1"}},
		} {
			res, err := m.Search(query.Query{Names: "declan holloway", Gender: c.gender})
			if err != nil {
				t.Fatalf("%s %q: %v", mname, c.gender, err)
			}
			if got := sortedIDs(res); strings.Join(got, ",") != strings.Join(c.want, ",") {
				t.Errorf("%s gender %q: %v, want %v", mname, c.gender, got, c.want)
			}
		}
		for _, bad := range []string{"x", "unknown", "other", "U", "mal", "woman"} {
			_, err := m.Search(query.Query{Names: "declan holloway", Gender: bad})
			var pe *query.ParamError
			if !errors.As(err, &pe) || pe.Param != "gender" || !strings.Contains(pe.Msg, "leave it empty") {
				t.Errorf("%s gender %q: %v, want a ParamError saying to leave it empty", mname, bad, err)
			}
		}
	}
}

func sortedIDs(r *Result) []string {
	out := ids(r)
	slices.Sort(out)
	return out
}

// TestValidateFuzzy: the matcher refuses a fuzzy radius ParseFuzzy would.
func TestValidateFuzzy(t *testing.T) {
	if err := query.Validate(query.Query{Names: "x", Fuzzy: 3}); err == nil || err.Error() != "fuzzy_search: 3 is not 0, 1 or 2" {
		t.Errorf("Validate fuzzy 3: %v", err)
	}
}

// TestHugeDateQuotedShort: a huge bad dob comes back in a short error.
func TestHugeDateQuotedShort(t *testing.T) {
	// A huge bad date is quoted short.
	err := query.Validate(query.Query{Names: "x", DOB: strings.Repeat("1", 100000)})
	if err == nil || len(err.Error()) > 100 {
		t.Errorf("dob error is %d bytes", len(err.Error()))
	}
}

// FuzzQueryLimits: whatever names text comes in, compile either refuses it
// with a ParamError or accepts a text within the limits whose every
// spelling has at most MaxTextWords words.
func FuzzQueryLimits(f *testing.F) {
	for _, s := range []string{"vladimir putin", "Abu-Bakr al-Baghdadi", strings.Repeat("a-", 40), strings.Repeat("ivan ", 33),
		strings.Repeat("я", 513), "o'brien", "½ ⅓", "北京 东京", "a\u0301b", "x.y.z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := compile(query.Query{Names: s})
		if err != nil {
			var pe *query.ParamError
			if !errors.As(err, &pe) {
				t.Fatalf("%q: %v is not a ParamError", s, err)
			}
			if len(err.Error()) > 200 {
				t.Fatalf("%d-byte message", len(err.Error()))
			}
			return
		}
		if utf8.RuneCountInString(s) > query.MaxTextRunes {
			t.Fatalf("accepted %d runes", utf8.RuneCountInString(s))
		}
		for _, v := range append(c.raw, c.legal...) {
			if len(v) > query.MaxTextWords {
				t.Fatalf("accepted %d words: %q", len(v), v)
			}
		}
	})
}
