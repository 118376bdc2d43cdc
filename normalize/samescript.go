package normalize

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Two names written in one script that Fold romanises compare best in that
// script: romanisation merges letters the script keeps apart (Han
// homophones, 刘 and 柳 both liu; Arabic ح and ه both h; Cyrillic е and э
// both e), so two different names can romanise alike. InScript cuts a
// name into the units its script compares, for the scored matcher to check
// what romanisation hid.

// Script names the script a name is written in, for same-script
// comparison: Han, Hangul, kana, Arabic, Hebrew, Cyrillic or Greek.
type Script uint8

// The scripts InScript tells apart; NoScript is Latin, a mix of scripts,
// or a script compared through its romanisation only.
const (
	NoScript Script = iota
	HanScript
	HangulScript
	KanaScript
	ArabicScript
	HebrewScript
	CyrillicScript
	GreekScript
)

// ScriptName is a name written in one script, cut into its units.
type ScriptName struct {
	Script Script
	// Units are the name's characters in Han and syllable blocks in
	// Hangul (the name's word breaks dropped, as Han and Hangul names are
	// written without them), and its words in every other script: letters
	// in their own script, lower case, marks dropped and the letters that
	// spell one sound alike (Arabic alef forms, ё and е) merged.
	Units []string
}

// Syllabic reports whether the units are characters (Han, Hangul, kana)
// rather than words.
func (n ScriptName) Syllabic() bool {
	return n.Script == HanScript || n.Script == HangulScript || n.Script == KanaScript
}

// unitScript is the Script of letter r, NoScript for any other.
func unitScript(r rune) Script {
	switch scriptOf(r) {
	case hanScript:
		return HanScript
	case hangulScript:
		return HangulScript
	case kanaScript:
		return KanaScript
	case arabicScript:
		return ArabicScript
	case hebrewScript:
		return HebrewScript
	}
	switch {
	case unicode.Is(unicode.Cyrillic, r) && unicode.IsLetter(r):
		return CyrillicScript
	case unicode.Is(unicode.Greek, r) && unicode.IsLetter(r):
		return GreekScript
	}
	return NoScript
}

// InScript returns s cut into the units of the one script all its letters
// are written in, or a ScriptName of NoScript when s holds a Latin letter,
// letters of two scripts, or a digit. Japanese names mix kanji and kana:
// such a name is HanScript.
func InScript(s string) ScriptName {
	if isASCII(s) {
		return ScriptName{}
	}
	s = norm.NFC.String(s)
	sc := NoScript
	for _, r := range s {
		if unicode.IsDigit(r) {
			return ScriptName{}
		}
		if !unicode.IsLetter(r) {
			continue
		}
		u := unitScript(r)
		if (u == KanaScript || u == HanScript) && (sc == KanaScript || sc == HanScript) {
			u, sc = HanScript, HanScript
		}
		if u == NoScript || sc != NoScript && u != sc {
			return ScriptName{}
		}
		sc = u
	}
	if sc == NoScript {
		return ScriptName{}
	}
	n := ScriptName{Script: sc}
	if n.Syllabic() {
		for _, r := range s {
			if unicode.IsLetter(r) {
				n.Units = append(n.Units, string(r))
			}
		}
		return n
	}
	var w []byte
	flush := func() {
		if len(w) > 0 {
			n.Units = append(n.Units, string(w))
			w = w[:0]
		}
	}
	for _, r := range s {
		switch {
		case sc == ArabicScript && arabicDropped(r), unicode.IsMark(r):
			// vowel signs and marks: vocalised and bare spellings alike
		case unicode.IsLetter(r):
			if l := scriptLetter(sc, r); l != 0 {
				w = utf8.AppendRune(w, l)
			}
		case isJoiner(r):
		default:
			flush()
		}
	}
	flush()
	return n
}

// scriptLetter is r lower-cased, with the letters that write one sound in
// names merged: the alef forms, alef maqsura and ya, ta marbuta and ha of
// Arabic (arabicKey); the letters by which Russian, Ukrainian and
// Belarusian write one name (ё, э, є and е; ы, і, ї and и; ґ and г; ў
// and у: Эдуард, Едуард); 0 for the soft and hard signs, which Fold
// drops too.
func scriptLetter(sc Script, r rune) rune {
	r = unicode.ToLower(r)
	switch sc {
	case ArabicScript:
		var buf [8]byte
		k, _ := utf8.DecodeRune(arabicKey(buf[:0], []rune{r}))
		return k
	case CyrillicScript:
		switch r {
		case 'ё', 'э', 'є':
			return 'е'
		case 'ы', 'і', 'ї':
			return 'и'
		case 'ґ':
			return 'г'
		case 'ў':
			return 'у'
		case 'ь', 'ъ':
			return 0 // signs, not sounds: Игорь, Игор
		}
	}
	return r
}

// SameRomanisation reports whether two units of one script romanise alike
// (Fold), though they differ: two names the romanised comparison cannot
// tell apart.
func SameRomanisation(a, b string) bool {
	if a == b {
		return false
	}
	fa, fb := strings.Join(Words(a), ""), strings.Join(Words(b), "")
	return fa != "" && fa == fb
}
