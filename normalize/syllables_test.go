package normalize

import "testing"

func TestIsRomanSyllables(t *testing.T) {
	for _, tc := range []struct {
		w    string
		want bool
	}{
		{"zhou", true}, {"hou", true}, {"li", true}, {"hailan", true}, {"xiaoyan", true},
		{"hyon", true}, {"hoon", true}, {"jeong", true}, {"pak", true}, {"lee", true},
		{"putin", false}, {"puttin", false}, // two Korean syllables do not count
		{"mikhail", false}, {"soleimani", false}, {"smith", false}, {"ali", false},
		{"a", false}, {"", false},
	} {
		if got := IsRomanSyllables(tc.w); got != tc.want {
			t.Errorf("IsRomanSyllables(%q) = %v, want %v", tc.w, got, tc.want)
		}
	}
}

// TestIsRomanSyllable: one syllable only; two pinyin syllables joined
// (hailan) and Western words made of two (reza: re, za) are not one.
func TestIsRomanSyllable(t *testing.T) {
	for _, tc := range []struct {
		w    string
		want bool
	}{
		{"zhou", true}, {"sun", true}, {"chol", true}, {"yong", true}, {"hyon", true},
		{"hailan", false}, {"reza", false}, {"ali", false}, {"putin", false}, {"a", false}, {"", false},
	} {
		if got := IsRomanSyllable(tc.w); got != tc.want {
			t.Errorf("IsRomanSyllable(%q) = %v, want %v", tc.w, got, tc.want)
		}
	}
}

func TestSameKoreanSyllable(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"chol", "chul", true}, {"chol", "cheol", true}, {"myong", "myung", true},
		{"hun", "hoon", true}, {"jong", "jeong", true}, {"kim", "gim", true},
		{"hyon", "hoon", false}, {"hyok", "hyon", false}, {"song", "dong", false},
		{"hou", "zhou", false}, {"qiu", "liu", false}, {"ji", "jun", false},
	} {
		if got := SameKoreanSyllable(tc.a, tc.b); got != tc.want {
			t.Errorf("SameKoreanSyllable(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
