package country

import "testing"

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
		{"Atlantis", "", false}, {"ZZ", "", false}, {"", "", false},
	}
	for _, tt := range tests {
		got, ok := Code(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Code(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
	if !IsCode("fr") || IsCode("fra") || IsCode("QQ") {
		t.Error("IsCode: want fr a code, fra and QQ not")
	}
}
