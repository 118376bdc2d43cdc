package hanread

import "testing"

func TestToneless(t *testing.T) {
	tests := []struct{ in, want string }{
		{"zhōng,zhòng", "zhong"},
		{"lǚ", "lu"},
		{"nǚ", "nu"},
		{"xí", "xi"},
		{"ḿ", "m"},
		{"ǹg", "ng"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Toneless(tt.in); got != tt.want {
			t.Errorf("Toneless(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
