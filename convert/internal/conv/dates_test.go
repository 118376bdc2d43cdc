package conv

import (
	"slices"
	"testing"
)

func TestParseDate(t *testing.T) {
	tests := []struct {
		in   string
		want string // "" when the input is no date
	}{
		{"12 Mar 1960", "12/03/1960"},
		{"1 March 1960", "01/03/1960"},
		{"Mar 1960", "00/03/1960"},
		{"Sept. 1960", "00/09/1960"},
		{"Nov. 1973", "00/11/1973"},
		{"1960", "00/00/1960"},
		{"1960-03-12", "12/03/1960"},
		{"1960-00-00", "00/00/1960"},
		{"29 Feb 2000", "29/02/2000"},
		{"29 Feb 1900", ""},
		{"31 Apr 1960", ""},
		{"00 Mar 1960", ""},
		{"1960-00-12", ""},
		{"12/03/1960", ""}, // slash dates may be Hijri
		{"Ma 1960", ""},
		{"1799", ""},
		{"2101", ""},
		{"196", ""},
		{"", ""},
		{"12 Mar 1960 extra", ""},
	}
	for _, tt := range tests {
		v, ok := ParseDate(tt.in)
		got := ""
		if ok {
			got = v.String()
		}
		if got != tt.want {
			t.Errorf("parseDate(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestExpandRange(t *testing.T) {
	tests := []struct {
		a, b Ymd
		want []string
	}{
		{Ymd{1960, 3, 12}, Ymd{1960, 3, 12}, []string{"12/03/1960"}},
		{Ymd{1960, 3, 1}, Ymd{1960, 3, 31}, []string{"00/03/1960"}},
		{Ymd{1960, 1, 1}, Ymd{1960, 12, 31}, []string{"00/00/1960"}},
		{Ymd{1960, 0, 0}, Ymd{1962, 0, 0}, []string{"00/00/1960", "00/00/1961", "00/00/1962"}},
		{Ymd{1962, 0, 0}, Ymd{1960, 0, 0}, nil},
		{Ymd{1960, 5, 0}, Ymd{1960, 3, 0}, nil},
		{Ymd{1960, 0, 0}, Ymd{1974, 0, 0}, []string{
			"00/00/1960", "00/00/1961", "00/00/1962", "00/00/1963", "00/00/1964",
			"00/00/1965", "00/00/1966", "00/00/1967", "00/00/1968", "00/00/1969",
			"00/00/1970", "00/00/1971", "00/00/1972", "00/00/1973", "00/00/1974"}},
		{Ymd{1960, 0, 0}, Ymd{1975, 0, 0}, nil}, // 16 years: too vague
	}
	for _, tt := range tests {
		if got := ExpandRange(tt.a, tt.b); !slices.Equal(got, tt.want) {
			t.Errorf("expandRange(%v, %v) = %q, want %q", tt.a, tt.b, got, tt.want)
		}
	}
}
