package normalize

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestFold(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Café", "cafe"},
		{"Łódź", "lodz"},
		{"Søren Ørsted", "soren orsted"},
		{"Straße", "strasse"},
		{"Æther Œuvre", "aether oeuvre"},
		{"Путин", "putin"},
		{"Строй", "stroy"},
		{"Хрущёв", "khrushchev"},
		{"Щукин", "shchukin"},
		{"Цой", "tsoy"},
		{"Чайковский", "chaykovskiy"},
		{"Жуков", "zhukov"},
		{"Юлия", "yuliya"},
		{"Ильич", "ilich"},
		{"Объект", "obekt"},
		{"Рыбаков", "rybakov"},
		{"Євгенія Їжак", "yevgeniya yizhak"},
		{"Ђоковић", "djokovic"},
		{"Αλέξης Τσίπρας", "alexis tsipras"},
		{"ΣΩΚΡΑΤΗΣ", "sokratis"},
		{"ﬁnance", "finance"},
		{"İstanbul", "istanbul"},
		{"already plain", "already plain"},
		// й decomposed (и + U+0306) still becomes y.
		{"Строи\u0306", "stroy"},
	}
	for _, tt := range tests {
		if got := Fold(tt.in); got != tt.want {
			t.Errorf("Fold(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTokenize(t *testing.T) {
	tests := []struct {
		in        string
		words     []string
		compounds []Compound
	}{
		{"Vladimir Vladimirovich PUTIN", []string{"vladimir", "vladimirovich", "putin"}, nil},
		{"O'Brien", []string{"obrien"}, nil},
		{"O’Brien, Patrick", []string{"obrien", "patrick"}, nil},
		{"U.S. Steel", []string{"us", "steel"}, nil},
		{"Abu-Bakr", []string{"abu", "bakr"}, []Compound{{0, 2, "abubakr"}}},
		{"Jean-Paul-Marie Dupont", []string{"jean", "paul", "marie", "dupont"}, []Compound{{0, 3, "jeanpaulmarie"}}},
		{"Al-Hassan bin Ali-Omar", []string{"al", "hassan", "bin", "ali", "omar"}, []Compound{{0, 2, "alhassan"}, {3, 5, "aliomar"}}},
		{"- dash - alone -", []string{"dash", "alone"}, nil},
		{"IMO 9187629", []string{"imo", "9187629"}, nil},
		{"ACME (Holdings) & Co.", []string{"acme", "holdings", "co"}, nil},
		{"  ", nil, nil},
		{"中国石油天然气集团", []string{"zhongguoshiyoutianranqijituan"}, nil},
		{"محمد بن سلمان", []string{"muhammad", "bin", "salman"}, nil},
		{"习近平", []string{"xi", "jinping"}, []Compound{{0, 2, "xijinping"}}},
		{"김정은", []string{"kim", "jong", "un"}, []Compound{{1, 3, "jongun"}}},
		{"בן־גביר", []string{"ben", "gabir"}, []Compound{{0, 2, "bengabir"}}},
		{"田中さくら", []string{"tian", "zhong", "sakura"}, []Compound{{0, 2, "tianzhong"}}},
		{"Smith/Jones", []string{"smith", "jones"}, nil},
	}
	for _, tt := range tests {
		got := Tokenize(tt.in)
		if !reflect.DeepEqual(got.Words, tt.words) || !reflect.DeepEqual(got.Compounds, tt.compounds) {
			t.Errorf("Tokenize(%q) = %q %v, want %q %v", tt.in, got.Words, got.Compounds, tt.words, tt.compounds)
		}
	}
}

func TestVariants(t *testing.T) {
	got := Tokenize("Abu-Bakr al-Baghdadi").Variants()
	want := [][]string{
		{"abu", "bakr", "al", "baghdadi"},
		{"abubakr", "al", "baghdadi"},
		{"abu", "bakr", "albaghdadi"},
		{"abubakr", "albaghdadi"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Variants = %q, want %q", got, want)
	}
	many := Tokenize("a-b c-d e-f g-h").Variants()
	if len(many) != 2 || len(many[0]) != 8 || len(many[1]) != 4 {
		t.Errorf("four compounds: got %q, want all-parts and all-joined only", many)
	}
}

func TestRecordNameAndQueryVariants(t *testing.T) {
	n := RecordName("ACME Holdings L.L.C.", true)
	if want := []string{"acme", "holdings", "~llc"}; !reflect.DeepEqual(n.Tokens, want) || n.Base != 3 {
		t.Errorf("RecordName = %q base %d, want %q base 3", n.Tokens, n.Base, want)
	}
	n = RecordName("ACME Holdings L.L.C.", false)
	if want := []string{"acme", "holdings", "llc"}; !reflect.DeepEqual(n.Tokens, want) {
		t.Errorf("RecordName without legal forms = %q, want %q", n.Tokens, want)
	}
	n = RecordName("Abu-Bakr", false)
	if want := []string{"abu", "bakr", "abubakr"}; !reflect.DeepEqual(n.Tokens, want) || n.Base != 2 {
		t.Errorf("RecordName(Abu-Bakr) = %q base %d, want %q base 2", n.Tokens, n.Base, want)
	}
	q := QueryVariants("acme holdings limited liability company", true)
	if want := [][]string{{"acme", "holdings", "~llc"}}; !reflect.DeepEqual(q, want) {
		t.Errorf("QueryVariants = %q, want %q", q, want)
	}
}

// FuzzTokenize checks invariants that every input must keep: tokens are
// non-empty valid UTF-8 without separators, folding is idempotent and
// tokenising a token gives the token back.
func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"Vladimir Putin", "O'Brien", "Abu-Bakr", "ООО Ромашка", "株式会社トヨタ", "a--b", "-", "x.-y", "Αλέξης", "\u0306", "ǅ",
		"عبد العزيز", "مسعود پزشک\u200cفر", "בע״מ", "ג'ורג'", "习近平", "贝拉克·奥巴马", "ｶﾀｶﾅ", "キャッチャー", "김정은", "ᄀ", "ვლადიმერ", "Երևան", "式䃨"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tk := Tokenize(s)
		for _, w := range tk.All() {
			if w == "" || !utf8.ValidString(w) {
				t.Fatalf("Tokenize(%q): bad token %q", s, w)
			}
			if strings.ContainsAny(w, " \t\n,;-") {
				t.Fatalf("Tokenize(%q): token %q holds a separator", s, w)
			}
		}
		for _, c := range tk.Compounds {
			if c.Start < 0 || c.End > len(tk.Words) || c.End-c.Start < 2 {
				t.Fatalf("Tokenize(%q): bad compound %+v of %q", s, c, tk.Words)
			}
		}
		if utf8.ValidString(s) {
			if f1 := Fold(s); Fold(f1) != f1 {
				t.Fatalf("Fold not idempotent on %q: %q then %q", s, f1, Fold(f1))
			}
		}
		if f := Fold(s); isASCII(f) {
			a, r := tokenizeASCII(f, nil), tokenizeRunes(f)
			if !reflect.DeepEqual(a, r) {
				t.Fatalf("ASCII and rune tokenizers differ on %q: %+v vs %+v", f, a, r)
			}
		}
		if got, want := AppendWords([]string{"x"}, s), append([]string{"x"}, Words(s)...); !reflect.DeepEqual(got, want) {
			t.Fatalf("AppendWords(%q) = %q, want %q", s, got, want)
		}
		vs := QueryVariants(s, true)
		if len(vs) == 0 {
			t.Fatalf("QueryVariants(%q) returned no variant", s)
		}
	})
}

// TestFoldScriptForms checks that the forms Unicode has for one letter
// romanise alike: half-width and full-width katakana, Hangul syllables and
// their decomposed jamo, Arabic presentation forms and letters.
func TestFoldScriptForms(t *testing.T) {
	tests := []struct{ in, want string }{
		{"ダイハツ", "daihatsu"},
		{"ｶﾀｶﾅ", "katakana"},
		{"カタカナ", "katakana"},
		{"삼성전자", "samsongjonja"},
		{"\u1109\u1161\u11B7\u1109\u1165\u11BC\u110C\u1165\u11AB\u110C\u1161", "samsongjonja"}, // jamo
		{"ﻣﺤﻤﺪ", "muhammad"}, // presentation forms
		{"محمد", "muhammad"},
		{"مُحَمَّد", "muhammad"}, // vowelled
		{"محـــمد", "muhammad"},  // tatweel
		{"١٢٣", "123"},
		{"ש.ש.", "sh.sh."},
		{"㋐", "a"},
	}
	for _, tt := range tests {
		if got := Fold(tt.in); got != tt.want {
			t.Errorf("Fold(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCanonicalizePicksFewestTokens(t *testing.T) {
	tests := []struct{ in, want string }{
		{"acme co limited liability company", "acme ~co ~llc"},
		{"acme holdings l.l.c.", "acme holdings ~llc"},
		{"plain name", "plain name"},
	}
	for _, tt := range tests {
		got := strings.Join(LegalForms().Canonicalize(Tokenize(tt.in).Words), " ")
		if got != tt.want {
			t.Errorf("Canonicalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
