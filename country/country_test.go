package country

import (
	"strings"
	"testing"
)

func TestCode(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"DE", "DE", true}, {"de", "DE", true}, {"Germany", "DE", true},
		{"Russian Federation", "RU", true}, {"Russia", "RU", true}, {"RUSSIA", "RU", true},
		{"Iran (Islamic Republic of)", "IR", true}, {"Côte d’Ivoire", "CI", true},
		{"United Kingdom", "GB", true}, {"Korea, North", "KP", true},
		{"Syria", "SY", true}, {"United States", "US", true},
		{"German", "DE", true}, {"British", "GB", true}, {"north korean", "KP", true},
		{"Atlantis", "", false}, {"ZZ", "", false}, {"", "", false},
	}
	for _, tt := range tests {
		got, ok := Code(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Code(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// TestCountryTableConsistent pins the table's shape: one line per code,
// codes of two capital letters, and no name that two codes claim (the map
// would silently keep the last).
func TestCountryTableConsistent(t *testing.T) {
	codes := map[string]bool{}
	owner := map[string]string{}
	for line := range strings.SplitSeq(table, "\n") {
		code, names, ok := strings.Cut(line, " ")
		if !ok || len(code) != 2 || strings.ToUpper(code) != code {
			t.Fatalf("bad table line %q", line)
		}
		if codes[code] {
			t.Errorf("code %s listed twice", code)
		}
		codes[code] = true
		for name := range strings.SplitSeq(names, "|") {
			k := Key(name)
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

// TestCodeConcurrently: the engine resolves citizenship names from every
// core at once; run with -race.
func TestCodeConcurrently(t *testing.T) {
	done := make(chan bool)
	for w := 0; w < 4; w++ {
		go func() {
			for i := 0; i < 2000; i++ {
				if c, ok := Code("Türkiye"); !ok || c != "TR" {
					t.Errorf("Code(Türkiye) = %q, %v", c, ok)
				}
			}
			done <- true
		}()
	}
	for w := 0; w < 4; w++ {
		<-done
	}
}

// TestParseCode: the citizenship filter takes assigned codes, XK and the
// aliases UK and EL, in any case; unassigned codes and names are refused.
func TestParseCode(t *testing.T) {
	for _, tt := range []struct {
		in, want string
		ok       bool
	}{
		{"GB", "GB", true}, {"gb", "GB", true}, {"Gb", "GB", true}, {" ru ", "RU", true},
		{"UK", "GB", true}, {"uk", "GB", true}, {"EL", "GR", true}, {"el", "GR", true},
		{"XK", "XK", true}, {"xk", "XK", true},
		{"XX", "", false}, {"ZZ", "", false}, {"EU", "", false}, {"AN", "", false},
		{"", "", false}, {"G", "", false}, {"GBR", "", false}, {"Germany", "", false}, {"1A", "", false},
	} {
		got, ok := ParseCode(tt.in)
		if ok != tt.ok || (ok && got != tt.want) {
			t.Errorf("ParseCode(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
