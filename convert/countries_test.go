package convert

import (
	"strings"
	"testing"
)

func TestCountryCode(t *testing.T) {
	tests := []struct {
		name string
		code string
		ok   bool
	}{
		{"Iran", "IR", true},
		{"Iran (Islamic Republic of)", "IR", true},
		{"IRAN", "IR", true},
		{"Korea, North", "KP", true},
		{"Democratic People's Republic of Korea", "KP", true},
		{"Korea, South", "KR", true},
		{"Burma", "MM", true},
		{"Congo, Democratic Republic of the", "CD", true},
		{"Congo, Republic of the", "CG", true},
		{"Cote d Ivoire", "CI", true},
		{"Côte d'Ivoire", "CI", true},
		{"Türkiye", "TR", true},
		{"Bahamas, The", "BS", true},
		{"The Gambia", "GM", true},
		{"St. Kitts & Nevis", "KN", true},
		{"United Kingdom of Great Britain and Northern Ireland", "GB", true},
		{"U.K.", "GB", true},
		{"Man, Isle of", "IM", true},
		{"Virgin Islands, British", "VG", true},
		{"China, Hong Kong Special Administrative Region", "HK", true},
		{"Viet Nam", "VN", true},
		{"Russian Federation", "RU", true},
		{"Region: Crimea", "UA", true},
		{"West Bank", "PS", true},
		{"  syria  ", "SY", true},
		{"Kosovo", "XK", true},
		{"Atlantis", "", false},
		{"undetermined", "", false},
		{"", "", false},
		{"former Soviet Union", "", false},
	}
	for _, tt := range tests {
		code, ok := CountryCode(tt.name)
		if code != tt.code || ok != tt.ok {
			t.Errorf("CountryCode(%q) = %q, %v; want %q, %v", tt.name, code, ok, tt.code, tt.ok)
		}
	}
}

// TestCountryTableConsistent pins the table's shape: one line per code,
// codes of two capital letters, and no name that two codes claim (the map
// would silently keep the last).
func TestCountryTableConsistent(t *testing.T) {
	codes := map[string]bool{}
	owner := map[string]string{}
	for line := range strings.SplitSeq(countryTable, "\n") {
		code, names, ok := strings.Cut(line, " ")
		if !ok || len(code) != 2 || strings.ToUpper(code) != code {
			t.Fatalf("bad table line %q", line)
		}
		if codes[code] {
			t.Errorf("code %s listed twice", code)
		}
		codes[code] = true
		for name := range strings.SplitSeq(names, "|") {
			k := countryKey(name)
			if k == "" {
				t.Errorf("%s: empty name", code)
			}
			if o, dup := owner[k]; dup && o != code {
				t.Errorf("name %q maps to both %s and %s", name, o, code)
			}
			owner[k] = code
		}
	}
	if len(codes) != 250 {
		t.Errorf("table has %d codes, want the 249 of ISO 3166-1 plus XK", len(codes))
	}
}
