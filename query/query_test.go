package query

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseFuzzy(t *testing.T) {
	for in, want := range map[string]int{"": 0, "0": 0, "1": 1, "2": 2} {
		if got, err := ParseFuzzy(in); err != nil || got != want {
			t.Errorf("ParseFuzzy(%q) = %d, %v", in, got, err)
		}
	}
	for _, bad := range []string{"3", "-1", "01", "one", " 1", "true"} {
		_, err := ParseFuzzy(bad)
		var pe *ParamError
		if !errors.As(err, &pe) || pe.Param != "fuzzy_search" || !strings.Contains(pe.Msg, "is not 0, 1 or 2") {
			t.Errorf("ParseFuzzy(%q) = %v", bad, err)
		}
	}
}

func TestQuoteValue(t *testing.T) {
	for in, want := range map[string]string{
		"":                       `""`,
		"abc":                    `"abc"`,
		strings.Repeat("я", 40):  `"` + strings.Repeat("я", 40) + `"`,
		strings.Repeat("я", 41):  `"` + strings.Repeat("я", 40) + `"…`,
		strings.Repeat("x", 1e6): `"` + strings.Repeat("x", 40) + `"…`,
		"a\x00b":                 `"a\x00b"`,
	} {
		if got := QuoteValue(in); got != want {
			t.Errorf("QuoteValue(%.20q) = %s, want %s", in, got, want)
		}
	}
}

// TestTextLimits: names and search_all are refused past 512 characters
// or 32 words, with the parameter and the limit named, and the message
// never echoes the value whole.
func TestTextLimits(t *testing.T) {
	word := "ivan "
	ok := []string{
		strings.Repeat("a", MaxTextRunes),
		strings.Repeat("я", MaxTextRunes), // 1,024 bytes
		strings.TrimSpace(strings.Repeat(word, MaxTextWords)),
		strings.Repeat("o'brien ", MaxTextWords), // joiners keep one word
	}
	bad := []struct{ text, msg string }{
		{strings.Repeat("a", MaxTextRunes+1), "513 characters, more than the 512 allowed"},
		{strings.Repeat("я", MaxTextRunes+1), "513 characters, more than the 512 allowed"},
		{strings.Repeat("a", 100000), "longer than the 512 characters allowed"},
		{strings.Repeat(word, MaxTextWords+1), "33 words, more than the 32 allowed"},
		{strings.Repeat("a-", 40), "40 words, more than the 32 allowed"},
		{strings.Repeat("x,", 200), "200 words, more than the 32 allowed"},
	}
	for _, searchAll := range []bool{false, true} {
		param := "names"
		if searchAll {
			param = "search_all"
		}
		q := func(s string) Query {
			if searchAll {
				return Query{SearchAll: s}
			}
			return Query{Names: s}
		}
		for _, s := range ok {
			if err := Validate(q(s)); err != nil {
				t.Errorf("%s of %d runes: %v", param, utf8.RuneCountInString(s), err)
			}
		}
		for _, b := range bad {
			err := Validate(q(b.text))
			var pe *ParamError
			if !errors.As(err, &pe) || pe.Param != param || pe.Msg != b.msg {
				t.Errorf("%s %s…: %v, want %s: %s", param, b.text[:10], err, param, b.msg)
			}
		}
	}
}

// TestParseKind: the three kinds read back from their names, and any
// other value is a ParamError of type.
func TestParseKind(t *testing.T) {
	for _, k := range []Kind{Any, Individual, Entity} {
		if got, err := ParseKind(strings.ToUpper(k.String())); err != nil || got != k {
			t.Errorf("ParseKind(%q) = %v, %v", k.String(), got, err)
		}
	}
	if k, err := ParseKind("name"); err != nil || k != Any {
		t.Errorf("ParseKind(name) = %v, %v", k, err)
	}
	var pe *ParamError
	if _, err := ParseKind("vessel"); !errors.As(err, &pe) || pe.Param != "type" {
		t.Errorf("ParseKind(vessel): %v, want a ParamError of type", err)
	}
}

// TestScoredParams: the parameters of scored mode and their errors.
func TestScoredParams(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want MatchMode
		ok   bool
	}{{"", Strict, true}, {"strict", Strict, true}, {"SCORED", Scored, true}, {"fuzzy", Strict, false}} {
		m, err := ParseMatch(tc.in)
		if m != tc.want || (err == nil) != tc.ok {
			t.Errorf("ParseMatch(%q) = %v, %v", tc.in, m, err)
		}
		var pe *ParamError
		if err != nil && (!errors.As(err, &pe) || pe.Param != "match") {
			t.Errorf("ParseMatch(%q): %v is no ParamError of match", tc.in, err)
		}
	}
	for _, tc := range []struct {
		in   string
		want float64
		ok   bool
	}{{"", 0, true}, {"0.5", 0.5, true}, {"1", 1, true}, {"0", 0, false}, {"1.01", 0, false}, {"-0.2", 0, false}, {"NaN", 0, false}, {"x", 0, false}} {
		v, err := ParseMinScore(tc.in)
		if v != tc.want || (err == nil) != tc.ok {
			t.Errorf("ParseMinScore(%q) = %v, %v", tc.in, v, err)
		}
	}
	for _, tc := range []struct {
		q     Query
		want  float64
		param string
	}{
		{Query{Names: "x"}, 0, ""},
		{Query{Names: "x", Match: Scored}, DefaultMinScore, ""},
		{Query{Names: "x", Match: Scored, MinScore: 0.5}, 0.5, ""},
		{Query{Names: "x", MinScore: 0.5}, 0, "min_score"},
		{Query{Names: "x", Match: Scored, MinScore: 2}, 0, "min_score"},
		{Query{Names: "x", Match: Scored, MinScore: math.NaN()}, 0, "min_score"},
		{Query{SearchAll: "x", Match: Scored}, 0, "match"},
		{Query{Names: "x", Match: 7}, 0, "match"},
	} {
		got, err := tc.q.Threshold()
		var pe *ParamError
		switch {
		case tc.param == "" && (err != nil || got != tc.want):
			t.Errorf("%+v: Threshold = %v, %v, want %v", tc.q, got, err, tc.want)
		case tc.param != "" && (!errors.As(err, &pe) || pe.Param != tc.param):
			t.Errorf("%+v: %v, want a ParamError of %s", tc.q, err, tc.param)
		}
	}
}

// TestFilters: each filter rule passes what docs/MATCHING.md "Filters"
// says and nothing else.
func TestFilters(t *testing.T) {
	for _, tc := range []struct {
		k    Kind
		et   string
		want bool
	}{
		{Individual, "INDIVIDUAL", true}, {Individual, "UNKNOWN", true}, {Individual, "", true}, {Individual, "ENTITY", false}, {Individual, "VESSEL", false},
		{Entity, "ENTITY", true}, {Entity, "UNKNOWN", true}, {Entity, "", true}, {Entity, "INDIVIDUAL", false},
		{Any, "VESSEL", true}, {Any, "INDIVIDUAL", true},
	} {
		if got := KindAllows(tc.k, tc.et); got != tc.want {
			t.Errorf("KindAllows(%v, %q) = %v", tc.k, tc.et, got)
		}
	}
	for _, tc := range []struct {
		want, got string
		ok        bool
	}{{"", "MALE", true}, {"MALE", "MALE", true}, {"MALE", "FEMALE", false}, {"FEMALE", "UNKNOWN", true}, {"FEMALE", "", true}} {
		if ok := GenderAllows(tc.want, tc.got); ok != tc.ok {
			t.Errorf("GenderAllows(%q, %q) = %v", tc.want, tc.got, ok)
		}
	}
	for _, tc := range []struct {
		want string
		got  []string
		ok   bool
	}{{"", []string{"France"}, true}, {"GB", nil, true}, {"GB", []string{"GB"}, true}, {"GB", []string{"United Kingdom"}, true}, {"GB", []string{"FR", "Germany"}, false}} {
		if ok := CitizenshipAllows(tc.want, tc.got); ok != tc.ok {
			t.Errorf("CitizenshipAllows(%q, %q) = %v", tc.want, tc.got, ok)
		}
	}
	q, err := ParseQueryDate("07/10/1952")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dobs []string
		ok   bool
	}{{nil, true}, {[]string{"1952"}, true}, {[]string{"10/1952"}, true}, {[]string{"1952-10-07"}, true}, {[]string{"circa 1960"}, true},
		{[]string{"1953"}, false}, {[]string{"08/10/1952"}, false}, {[]string{"1953", "7/10/1952"}, true}} {
		if ok := DOBAllows(q, tc.dobs); ok != tc.ok {
			t.Errorf("DOBAllows(1952-10-07, %q) = %v", tc.dobs, ok)
		}
	}
}

// FuzzParseQueryDate: a dob parameter is refused or gives a date whose
// components are in range and that prints back as the same parameter.
func FuzzParseQueryDate(f *testing.F) {
	for _, s := range []string{"07/10/1952", "00/00/1960", "29/02/2024", "29/02/2023", "32/01/2000", "1/1/2000", "00/00/0000", "+1/02/2000", "01/-2/2000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseQueryDate(s)
		if err != nil {
			return
		}
		if d.Year() < 1 || d.Month() > 12 || d.Day() > 31 {
			t.Fatalf("%q parsed to %d-%d-%d", s, d.Year(), d.Month(), d.Day())
		}
		if back := fmt.Sprintf("%02d/%02d/%04d", d.Day(), d.Month(), d.Year()); back != s {
			t.Fatalf("%q parsed to a date that prints as %q", s, back)
		}
	})
}
