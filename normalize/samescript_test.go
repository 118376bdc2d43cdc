package normalize

import (
	"slices"
	"testing"
)

func TestInScript(t *testing.T) {
	for _, tc := range []struct {
		in    string
		want  Script
		units []string
	}{
		{"刘丽华", HanScript, []string{"刘", "丽", "华"}},
		{"山田 太郎", HanScript, []string{"山", "田", "太", "郎"}},
		{"やまだ 花子", HanScript, []string{"や", "ま", "だ", "花", "子"}},
		{"김성훈", HangulScript, []string{"김", "성", "훈"}},
		{"أحمد حسن", ArabicScript, []string{"احمد", "حسن"}},
		{"مُحَمَّد", ArabicScript, []string{"محمد"}},
		{"Семён Петров", CyrillicScript, []string{"семен", "петров"}},
		{"Эдуард Ігоревич", CyrillicScript, []string{"едуард", "игоревич"}},
		{"Игорь Ильин", CyrillicScript, []string{"игор", "илин"}},
		{"Liu Lihua", NoScript, nil},
		{"刘 Lihua", NoScript, nil},
		{"Иван 2", NoScript, nil},
	} {
		got := InScript(tc.in)
		if got.Script != tc.want || !slices.Equal(got.Units, tc.units) {
			t.Errorf("InScript(%q) = %v %q, want %v %q", tc.in, got.Script, got.Units, tc.want, tc.units)
		}
	}
}

func TestSameRomanisation(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"刘", "柳", true},       // both liu
		{"刘", "邱", false},      // liu, qiu
		{"刘", "刘", false},      // the same unit is no homophone
		{"سليم", "صليم", true}, // both salim
		{"حسن", "حسين", false},
		{"Ильин", "Илин", true}, // both ilin (InScript drops the sign)
	} {
		if got := SameRomanisation(tc.a, tc.b); got != tc.want {
			t.Errorf("SameRomanisation(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
