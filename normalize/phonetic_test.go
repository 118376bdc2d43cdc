package normalize

import (
	"strings"
	"testing"
)

// TestPhoneticKeysJoinTransliterations: spellings of one name written by
// different transliteration schemes share a key; that is what the keys are
// for. Pairs from the aliases of listed people and from passports.
func TestPhoneticKeysJoinTransliterations(t *testing.T) {
	for _, tc := range []struct {
		a, b  string
		sound bool // the sound keys agree, not only the skeletons
	}{
		{"mikhaylovich", "mikhailovich", true},
		{"soleimany", "soleimani", true},
		{"pasichnyk", "pasechnik", true},
		{"muhammad", "mohamed", true},
		{"mohammed", "muhamad", true},
		{"yevgeniy", "evgenii", true},
		{"yusuf", "youssef", true},
		{"iosif", "yusuf", true},
		{"oleksandr", "aleksandr", true},
		{"abdullah", "abdulla", true},
		{"khan", "han", true},
		{"qasim", "kassem", true},
		{"jafar", "dzhafar", true},
		{"sheikh", "shaykh", true},
		{"schmidt", "shmidt", true},
		{"vladimir", "wladimir", true},
		{"ghulam", "gulam", true},
		{"jang", "chang", true},  // Korean 장, two schemes
		{"zhang", "chang", true}, // pinyin and Wade–Giles
		{"alexander", "aleksandr", false},
		{"poutine", "putin", false},
		{"pepsi", "bibsi", false},          // Arabic has no p
		{"bramlett", "buramuretto", false}, // kana: no l against r
		{"kosen", "kuzn", false},           // s and z
	} {
		sa, ka := PhoneticKeys(tc.a)
		sb, kb := PhoneticKeys(tc.b)
		if ka == "" || ka != kb {
			t.Errorf("%s and %s: skeletons %q and %q, want one", tc.a, tc.b, ka, kb)
		}
		if tc.sound && (sa == "" || sa != sb) {
			t.Errorf("%s and %s: sound keys %q and %q, want one", tc.a, tc.b, sa, sb)
		}
	}
}

// TestPhoneticKeysKeepNamesApart: different names keep different keys where
// their letters allow it. (Hassan and Hussein share theirs; the variant
// table keeps them apart.)
func TestPhoneticKeysKeepNamesApart(t *testing.T) {
	for _, tc := range [][2]string{
		{"ahmad", "hamid"}, // a leading vowel counts
		{"karim", "akram"},
		{"muhammad", "mahmoud"}, // the sound keys differ; the skeletons do not
		{"zhang", "shang"},
		{"bush", "habbash"},
		{"george", "habash"},
	} {
		sa, ka := PhoneticKeys(tc[0])
		sb, kb := PhoneticKeys(tc[1])
		if sa == sb {
			t.Errorf("%s and %s share the sound key %q", tc[0], tc[1], sa)
		}
		if ka == kb && tc[0] != "muhammad" {
			t.Errorf("%s and %s share the skeleton %q", tc[0], tc[1], ka)
		}
	}
}

// TestPhoneticKeysNone: tokens with anything but a to z, or with fewer
// than two consonants, have no key.
func TestPhoneticKeysNone(t *testing.T) {
	for _, tok := range []string{"", "li", "ali", "aya", "1980", "abc1", "путин", "ka", strings.Repeat("ab", 30)} {
		if s, k := PhoneticKeys(tok); s != "" || k != "" {
			t.Errorf("%q has keys %q, %q; want none", tok, s, k)
		}
	}
	if s := SoundKey("bakr"); s != "bakr" {
		t.Errorf("SoundKey(bakr) = %q", s)
	}
	if s := Skeleton("oleksandr"); s != "arksntr" {
		t.Errorf("Skeleton(oleksandr) = %q", s)
	}
}

func FuzzPhoneticKeys(f *testing.F) {
	for _, s := range []string{"mikhaylovich", "tsch", "dzh", "qu", "xh", "cz", "ah", "h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sound, skel := PhoneticKeys(s)
		if (sound == "") != (skel == "") {
			t.Fatalf("%q: sound %q, skeleton %q: both or neither", s, sound, skel)
		}
		if len(sound) > 2*len(s) || strings.Contains(skel, "a") && skel[0] != 'a' {
			t.Fatalf("%q: sound %q, skeleton %q", s, sound, skel)
		}
	})
}

// TestNameVariantsTable: the embedded table loads, and joins and separates
// the names it is meant to.
func TestNameVariantsTable(t *testing.T) {
	v := Variants()
	if v.Len() < 100 {
		t.Fatalf("%d classes; the table did not load whole", v.Len())
	}
	same := [][]string{
		{"muhammad", "mohammed", "mohamed", "mohamad", "mehmet", "mohd", "magomed"},
		{"aleksandr", "alexander", "oleksandr", "aliaksandr"},
		{"yusuf", "youssef", "yousef", "iosif", "joseph"},
		{"hussein", "husayn", "hossein", "hussain"},
		{"vladimir", "volodymyr", "uladzimir"},
		{"ri", "lee", "rhee"},
	}
	for _, cls := range same {
		c := v.Class(cls[0])
		if c == 0 {
			t.Errorf("%s is in no class", cls[0])
			continue
		}
		for _, w := range cls[1:] {
			if v.Class(w) != c {
				t.Errorf("%s is in class %q, %s in %q", cls[0], v.Key(c), w, v.Key(v.Class(w)))
			}
		}
		if !containsString(v.Spellings(c), cls[0]) {
			t.Errorf("Spellings of %q lacks %s", v.Key(c), cls[0])
		}
	}
	for _, pair := range [][2]string{{"hassan", "hussein"}, {"ahmad", "hamid"}, {"muhammad", "mahmoud"}, {"hamid", "hamad"}, {"said", "sayyid"}} {
		if a, b := v.Class(pair[0]), v.Class(pair[1]); a == 0 || b == 0 || a == b {
			t.Errorf("%s (class %d) and %s (class %d) must be in two classes", pair[0], a, pair[1], b)
		}
	}
	if v.Class("smith") != 0 || v.Key(0) != "" || v.Spellings(0) != nil {
		t.Error("a word of no class, or class 0, answered as a class")
	}
}

func containsString(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// TestParseNameVariantsErrors: a broken table is refused with its line.
func TestParseNameVariantsErrors(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{"a: x y\nb: y z\n", `line 2: spelling "y" of class "b" is already in class "a"`},
		{"a: x x\n", `line 1: spelling "x" twice in class "a"`},
		{"a: x\n", `line 1: class "a" needs two spellings or more`},
		{"a x y\n", "line 1: want"},
		{"a: Xy z\n", `line 1: spelling "Xy" is not one word of a-z`},
	} {
		_, err := ParseNameVariants(tc.data)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.data, err, tc.want)
		}
	}
}
